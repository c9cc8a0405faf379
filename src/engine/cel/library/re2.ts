/**
 * RE2 patterns (cel-go's and Kubernetes' regular expressions) as JavaScript ones: the syntax they
 * share is the same; RE2's `(?i)`-style leading flags are turned into RegExp flags, and what RE2
 * refuses (backreferences, lookaround) is refused with RE2's wording.
 */
import { celError } from '../values';

const cache = new Map<string, RegExp>();

export function compileRE2(pattern: string, extraFlags = ''): RegExp {
  const key = `${extraFlags}/${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let src = pattern;
  let flags = 'u' + extraFlags;
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    src = src.slice(lead[0].length);
    if (lead[1]!.includes('i')) flags += 'i';
    if (lead[1]!.includes('m')) flags += 'm';
    if (lead[1]!.includes('s')) flags += 's';
  }
  if (/\(\?[=!<]|\\[1-9]/.test(src)) throw celError(`error parsing regexp: invalid or unsupported Perl syntax: \`${/\(\?[=!<]/.exec(src)?.[0] ?? '\\'}\``);
  let rx: RegExp;
  try {
    rx = new RegExp(src, flags);
  } catch (err) {
    throw celError(`error parsing regexp: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
  if (cache.size > 1000) cache.clear();
  cache.set(key, rx);
  return rx;
}
