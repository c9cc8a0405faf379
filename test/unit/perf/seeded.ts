/** A small seeded generator for the differential tests: next(n) is an integer in [0, n). */
export function seeded(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n: number): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % n;
  };
}
