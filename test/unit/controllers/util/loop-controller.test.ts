/** LoopController: the clock, recorder, informers and control loop every queue-driven controller shares. */
import { strict as assert } from 'node:assert';
import { controllerHarness } from '../../../support/controller-harness';
import type { KubeObject } from '../../../../src/engine/api/types';
import type { ReconcileContext } from '../../../../src/engine/client/controller';
import { CONFIGMAPS, SECRETS } from '../../../../src/engine/client/resources';
import type { ControllerDeps } from '../../../../src/engine/controllers/util/deps';
import { LoopController, loopWorkers, type LoopSpec } from '../../../../src/engine/controllers/util/loop-controller';

/** Copies each ConfigMap's name into an Event (when it reports events) and remembers what it synced. */
class Echo extends LoopController {
  readonly seen: string[] = [];
  readonly configMaps = this.informer(CONFIGMAPS);
  readonly secrets = this.informer(SECRETS);
  stopped = 0;

  constructor(deps: ControllerDeps, spec: LoopSpec) {
    super(deps, spec);
    this.configMaps.addEventHandler(this.loop.handler());
  }

  get cachesWaitedFor(): readonly unknown[] {
    return this.informers;
  }

  get eventsOrError(): string {
    try {
      return this.recorder.source.component ?? '';
    } catch (err) {
      return (err as Error).message;
    }
  }

  protected async sync(key: string, _ctx: ReconcileContext): Promise<void> {
    // The loop's first sync comes after every cache the controller took has synced.
    assert.ok(this.configMaps.hasSynced() && this.secrets.hasSynced());
    this.seen.push(`${key} at ${this.clock.now()}`);
    const cm = this.configMaps.indexer.get(key);
    if (cm && this.eventsOrError === 'echo-controller') this.recorder.event(cm, 'Normal', 'Echoed', `saw ${key}`);
  }

  override shutDown(): void {
    this.stopped++;
    super.shutDown();
  }
}

describe('controllers/util/loop-controller', () => {
  it('takes its workers from the --concurrent-*-syncs default of its name unless given', () => {
    assert.equal(loopWorkers({ name: 'daemonset' }), 2);
    assert.equal(loopWorkers({ name: 'garbagecollector' }), 20);
    assert.equal(loopWorkers({ name: 'horizontal-pod-autoscaler' }), 5);
    assert.equal(loopWorkers({ name: 'daemonset', workers: 1 }), 1);
    assert.throws(() => loopWorkers({ name: 'no-such-loop' }), /no-such-loop has no --concurrent-\*-syncs default/);
  });

  it('waits for the informers it took, syncs the keys its handlers queue, and records events as its component', async () => {
    const h = await controllerHarness();
    const echo = new Echo(h.deps('deployment-controller'), { name: 'echo', workers: 1, events: { component: 'echo-controller', stream: 'echo events' } });
    assert.deepEqual(echo.cachesWaitedFor, [echo.configMaps, echo.secrets]);
    assert.equal(echo.loop.name, 'echo');
    assert.equal(echo.eventsOrError, 'echo-controller');
    h.start(echo);
    await h.admin.resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one' } } as KubeObject);
    await h.clock.settle();
    assert.ok(echo.seen.some((s) => s.startsWith('default/one at ')), echo.seen.join(', '));
    const events = await h.admin.resource({ group: '', version: 'v1', resource: 'events' }, 'default').list();
    const echoed = events.items.filter((e) => (e as KubeObject & { reason?: string }).reason === 'Echoed');
    assert.equal(echoed.length, 1);
    assert.deepEqual((echoed[0] as KubeObject & { source?: unknown }).source, { component: 'echo-controller' });
    await h.close();
    assert.equal(echo.stopped, 1);
  });

  it('has no recorder when its spec names no events component', async () => {
    const h = await controllerHarness();
    const quiet = new Echo(h.deps('quiet'), { name: 'quiet', workers: 1 });
    assert.equal(quiet.eventsOrError, 'control loop quiet reports no events');
    await h.close();
  });
});
