/**
 * The real wall clock that paces virtual time in hosts running at real speed (the extension,
 * `kubesim serve`). It lives outside src/engine so the engine never reads wall time itself.
 */
import type { WallClock } from '../engine/pacer';

export const realWallClock: WallClock = {
  now: () => performance.now(),
  after: (ms, fn) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};
