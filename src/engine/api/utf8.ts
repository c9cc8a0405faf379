/**
 * The length of a string's UTF-8 encoding, as Go's len(string) counts it and etcd counts request
 * sizes: a surrogate pair is 4 bytes, a lone surrogate 3 (it encodes as U+FFFD). No Buffer, so
 * the webview can use it too.
 */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}
