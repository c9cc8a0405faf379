/** helper.DefaultNormalizeScore: scale to [0, max] by the largest score, optionally reversed. */
export function defaultNormalizeScore(max: number, reverse: boolean, scores: Float64Array): void {
  let maxCount = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]! > maxCount) maxCount = scores[i]!;
  if (maxCount === 0) {
    if (reverse) scores.fill(max);
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    let s = Math.trunc((max * scores[i]!) / maxCount);
    if (reverse) s = max - s;
    scores[i] = s;
  }
}
