/**
 * The timeline's pure readings of the trace that the panel draws with (who acted, what caused
 * what, which requests are the cluster's pulse, the story of an apply): the same functions the
 * CLI's output uses, so the panel and the terminal tell one story. They read records only.
 */
export { actorName } from '../engine/timeline/actor';
export { causalClosure, causeIndex } from '../engine/timeline/closure';
export { isEvent, isHeartbeat, isRead, requestOrigin, type Lookup } from '../engine/timeline/noise';
export { retriedRecords } from '../engine/timeline/retries';
export { buildStory, storyTitle, type Story, type StoryItem, type StoryPhase, type StoryStep, type StepState } from '../engine/timeline/story';
