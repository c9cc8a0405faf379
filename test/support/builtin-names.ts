/**
 * The names a JavaScript object answers for without having them (Object.prototype's and
 * Function.prototype's own property names, and `prototype`), and for each one a control: the same
 * name with its first letter changed (`constructor` -> `qonstructor`, `__proto__` -> `__qroto__`).
 * A control has the same length and the same character classes, so every Kubernetes rule
 * (DNS-1123 names, qualified names, ConfigMap keys, lengths) judges it exactly as it judges the
 * built-in name, and no JavaScript object has it. Running the same requests once with the names
 * and once with their controls, on two clusters with the same seed, must give the same answers
 * byte for byte once each control is written back as its name: anything else is a prototype
 * lookup somewhere.
 */

export const BUILTIN_NAMES: readonly string[] = [
  ...new Set([...Object.getOwnPropertyNames(Object.prototype), ...Object.getOwnPropertyNames(Function.prototype), 'prototype']),
].sort();

/** The name with its first letter changed to q (x if it is a q), case kept. */
export function control(name: string): string {
  const i = name.search(/[a-z]/i);
  const c = name[i]!;
  const lower = c === c.toLowerCase();
  const q = lower ? (c === 'q' ? 'x' : 'q') : c === 'Q' ? 'X' : 'Q';
  return name.slice(0, i) + q + name.slice(i + 1);
}

const capitalize = (s: string): string => s.replace(/[a-z]/i, (c) => c.toUpperCase());

/** `text` with every control (and its capitalized form) written back as its built-in name. */
export function restoreNames(text: string, names: readonly string[] = BUILTIN_NAMES): string {
  // Longest first, so that a control inside a longer one is not replaced on its own.
  const pairs = names.flatMap((n) => [[control(n), n], [control(capitalize(n)), capitalize(n)]] as const).sort((a, b) => b[0].length - a[0].length);
  let out = text;
  for (const [c, n] of pairs) out = out.split(c).join(n);
  return out;
}
