/**
 * encoding/base64's StdEncoding.Decode, for []byte fields (Secret and ConfigMap binaryData,
 * caBundle): the same accepted input (CR and LF skipped, padding required) and the same error,
 * `illegal base64 data at input byte 4`, offsets counted in bytes.
 */
import { fail, ok, type Fail, type Result } from '../../api/result';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

export function decodeGoBase64(text: string): Result<Uint8Array> {
  const src = Buffer.from(text, 'utf8');
  const out: number[] = [];
  const corrupt = (at: number): Fail => fail(`illegal base64 data at input byte ${at}`);
  const isNewline = (b: number | undefined) => b === 0x0a || b === 0x0d;
  let si = 0;
  while (si < src.length) {
    const quantum = [0, 0, 0, 0];
    let dlen = 4;
    let trailing: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return ok(Uint8Array.from(out));
        return corrupt(si - j);
      }
      const c = src[si]!;
      si++;
      const v = DECODE[c]!;
      if (v >= 0) {
        quantum[j] = v;
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== 0x3d || j < 2) return corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== 0x3d) return corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const val = (quantum[0]! << 18) | (quantum[1]! << 12) | (quantum[2]! << 6) | quantum[3]!;
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailing !== undefined) return corrupt(trailing);
  }
  return ok(Uint8Array.from(out));
}
