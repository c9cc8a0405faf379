/**
 * A ClockHost for hosts that must stay responsive while the engine works
 * (docs/architecture.md, invariant 8): the extension host, `kubesim serve`. The clock asks shouldYield() between timer callbacks;
 * once the current slice has run `sliceMs` of wall time, it yields with setImmediate so pending
 * I/O and UI messages get their turn, and a new slice starts. Wall time is read here, outside
 * src/engine, so the engine stays deterministic: yielding changes when work runs in real time,
 * never its order in virtual time.
 */
import type { ClockHost } from '../engine/clock';

/** About the longest stretch the engine may hold the event loop (well under invariant 8's 50 ms). */
export const DEFAULT_SLICE_MS = 20;

export function slicingClockHost(sliceMs: number = DEFAULT_SLICE_MS, now: () => number = () => performance.now()): ClockHost {
  let sliceStart = now();
  return {
    yieldToHost: () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          sliceStart = now();
          resolve();
        }),
      ),
    shouldYield: () => now() - sliceStart >= sliceMs,
  };
}
