export { buildStory, type StoryInput } from './build';
export { storyTitle } from './request';
export type { PodSummary, StepState, Story, StoryItem, StoryPhase, StoryState, StoryStep } from './types';
