/**
 * CycleState: what plugins compute for one pod in one scheduling cycle (PreFilter results read
 * by Filter, PreScore results read by Score). Keys are objects with a slot number, so a read in
 * the per-node loop is an array index, not a map lookup.
 */

export interface StateData {
  /** Preemption and nominated pods mutate a copy of the state; the original stays intact. */
  clone(): StateData;
}

let nextSlot = 0;

export class StateKey<T extends StateData> {
  readonly slot = nextSlot++;
  declare readonly type: T;

  constructor(readonly name: string) {}
}

export class CycleState {
  private slots: (StateData | undefined)[] = [];
  /** Plugins whose PreFilter returned Skip: their Filter is not run this cycle. */
  skipFilterPlugins = new Set<string>();
  /** Plugins whose PreScore returned Skip: their Score is not run this cycle. */
  skipScorePlugins = new Set<string>();

  read<T extends StateData>(key: StateKey<T>): T | undefined {
    return this.slots[key.slot] as T | undefined;
  }

  write<T extends StateData>(key: StateKey<T>, value: T): void {
    this.slots[key.slot] = value;
  }

  clone(): CycleState {
    const c = new CycleState();
    c.slots = this.slots.map((s) => s?.clone());
    c.skipFilterPlugins = this.skipFilterPlugins;
    c.skipScorePlugins = this.skipScorePlugins;
    return c;
  }
}
