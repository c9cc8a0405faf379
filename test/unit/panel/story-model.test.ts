/**
 * The Story tab's layout and its choice of apply: the control plane's steps in order with each
 * pod's steps gathered into one block where its first step is; the writes applied together (one
 * manifest) and the default story (the first write of the latest apply).
 */
import { strict as assert } from 'node:assert';
import type { Story, StoryStep } from '../../../src/engine/timeline/story';
import { appliedTogether, latestApply, storyEntries } from '../../../webview/model/story';
import { request } from './records';

const step = (title: string, pod?: string): StoryStep => ({ phase: pod ? 'kubelet' : 'controller', title, time: 0, actor: 'x', text: title, state: 'done', records: [], ...(pod ? { pod } : {}) });

describe('panel story model', () => {
  it('gathers each pod\'s steps into one block at its first step', () => {
    const steps = [step('rs'), step('a-sched', 'p/a'), step('b-sched', 'p/b'), step('a-kubelet', 'p/a'), step('deploy'), step('b-ready', 'p/b')];
    const story = { steps } as unknown as Story;
    const layout = storyEntries(story).map((e) => (e.kind === 'step' ? e.step.title : `${e.pod}[${e.steps.map((s) => `${s.index}:${s.step.title}`).join(',')}]`));
    assert.deepEqual(layout, ['rs', 'p/a[1:a-sched,3:a-kubelet]', 'p/b[2:b-sched,5:b-ready]', 'deploy']);
  });

  it('tells the writes of one manifest apart from the next apply', () => {
    const agent = 'kubesim-vscode/v1.35.0 (linux/amd64) kubernetes/unknown';
    const writes = [
      request(1, { verb: 'patch', time: 1000, userAgent: agent }),
      request(5, { verb: 'patch', time: 1000, userAgent: agent, resource: 'services', group: '' }),
      request(9, { verb: 'patch', time: 60_000, userAgent: agent }),
      request(12, { verb: 'patch', time: 60_000, userAgent: 'kubectl/v1.35.0', user: 'jane' }),
    ];
    assert.deepEqual(appliedTogether(writes, writes[1]!).map((w) => w.id), [1, 5], 'the Deployment and the Service of web.yaml');
    assert.deepEqual(appliedTogether(writes, writes[2]!).map((w) => w.id), [9], 'a minute later: another apply');
    assert.deepEqual(appliedTogether(writes, writes[3]!).map((w) => w.id), [12], 'another user at the same instant: another apply');
    assert.equal(latestApply(writes)?.id, 12);
    assert.equal(latestApply(writes.slice(0, 2))?.id, 1, 'the story of a manifest starts at its first object');
    assert.equal(latestApply([]), undefined);
  });
});
