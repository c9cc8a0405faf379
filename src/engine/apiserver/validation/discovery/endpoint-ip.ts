/**
 * ValidateEndpointIP (pkg/apis/core/validation): addresses that can never be a pod's endpoint --
 * unspecified, loopback and link-local -- are refused.
 */
import { invalid, type ErrorList, type Path } from '../../../api/field';
import { isIPv4, parseIPSloppy } from '../../../api/ip';

export function validateEndpointIP(address: string, fldPath: Path): ErrorList {
  const ip = parseIPSloppy(address);
  if (!ip) return [invalid(fldPath, address, 'must be a valid IP address')];
  const errs: ErrorList = [];
  const v4 = isIPv4(ip);
  const b = (i: number): number => ip[i] ?? 0;
  const unspecified = v4 ? b(12) === 0 && b(13) === 0 && b(14) === 0 && b(15) === 0 : ip.every((x) => x === 0);
  const loopback = v4 ? b(12) === 127 : ip.slice(0, 15).every((x) => x === 0) && b(15) === 1;
  const linkLocalUnicast = v4 ? b(12) === 169 && b(13) === 254 : b(0) === 0xfe && (b(1) & 0xc0) === 0x80;
  const linkLocalMulticast = v4 ? b(12) === 224 && b(13) === 0 && b(14) === 0 : b(0) === 0xff && (b(1) & 0x0f) === 0x02;
  if (unspecified) errs.push(invalid(fldPath, address, `may not be unspecified (${address})`));
  if (loopback) errs.push(invalid(fldPath, address, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (linkLocalUnicast) errs.push(invalid(fldPath, address, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (linkLocalMulticast) errs.push(invalid(fldPath, address, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}
