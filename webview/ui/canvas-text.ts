/** Text on a 2D canvas: cut to a width with an ellipsis, or wrapped at spaces. */

/** The text cut to fit `maxW` pixels, with an ellipsis. */
export function fit(ctx: CanvasRenderingContext2D, t: string, maxW: number): string {
  if (ctx.measureText(t).width <= maxW) return t;
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (ctx.measureText(`${t.slice(0, mid)}…`).width <= maxW) lo = mid;
    else hi = mid - 1;
  }
  return `${t.slice(0, lo)}…`;
}

/** The text in lines of at most `maxW` pixels, broken at spaces (a word too long for a line is cut). */
export function wrap(ctx: CanvasRenderingContext2D, t: string, maxW: number): string[] {
  const words = t.split(' ');
  const lines: string[] = [];
  let cur = '';
  for (const word of words) {
    const next = cur ? `${cur} ${word}` : word;
    if (ctx.measureText(next).width <= maxW || !cur) cur = next;
    else {
      lines.push(cur);
      cur = word;
    }
  }
  if (cur) lines.push(cur);
  return lines.map((l) => fit(ctx, l, maxW));
}
