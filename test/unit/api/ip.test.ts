import assert from 'node:assert/strict';
import { isValidCIDR, isValidCIDRForLegacyField, isValidInterfaceAddress, isValidIP, isValidIPForLegacyField } from '../../../src/engine/api/ip';
import { Path } from '../../../src/engine/api/field';

// Tables from k8s.io/apimachinery/pkg/util/validation/ip_test.go (release-1.35):
// [input, strict error, legacy (sloppy) error, legacy strict error]; '' means valid.
const fp = Path.root('');
const valid = 'must be a valid IP address';

describe('IP validation', () => {
  const ips: [string, string, string, string][] = [
    ['1.2.3.4', '', '', ''],
    ['0.0.0.0', '', '', ''],
    ['255.255.255.255', '', '', ''],
    ['1234::abcd', '', '', ''],
    ['::', '', '', ''],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '', '', ''],
    ['0:0:0:0:0:0:0:0', 'must be in canonical form ("::")', '', ''],
    ['0001:002:03:4::', 'must be in canonical form ("1:2:3:4::")', '', ''],
    ['1234::ABCD', 'must be in canonical form ("1234::abcd")', '', ''],
    ['1.1.1.01', 'must not have leading 0s', '', 'must not have leading 0s'],
    ['::ffff:1.1.1.1', 'must not be an IPv4-mapped IPv6 address', '', 'must not be an IPv4-mapped IPv6 address'],
    ['', valid, valid, valid],
    ['aaaaaaa', valid, valid, valid],
    ['myhost.mydomain', valid, valid, valid],
    ['1.2.3.0/24', valid, valid, valid],
    ['1.2.3.400', valid, valid, valid],
    ['-1.0.0.0', valid, valid, valid],
    ['2001:db8::10005', valid, valid, valid],
    ['1.2.3.4:80', valid, valid, valid],
    ['[2001:db8::1]', valid, valid, valid],
    ['[2001:db8::1]:80', valid, valid, valid],
    ['example.com:80', valid, valid, valid],
    ['1234::abcd%eth0', valid, valid, valid],
    ['169.254.0.0%eth0', valid, valid, valid],
  ];
  for (const [input, strictErr, legacyErr, legacyStrictErr] of ips) {
    it(JSON.stringify(input), () => {
      const check = (errs: { detail: string }[], want: string): void => {
        if (want === '') assert.deepEqual(errs, []);
        else {
          assert.equal(errs.length, 1);
          assert.ok(errs[0]!.detail.includes(want), errs[0]!.detail);
        }
      };
      check(isValidIP(fp, input), strictErr);
      check(isValidIPForLegacyField(fp, input, false), legacyErr);
      check(isValidIPForLegacyField(fp, input, true), legacyStrictErr);
      assert.deepEqual(isValidIPForLegacyField(fp, input, true, [input]), []);
    });
  }
  it('prints the full message', () => {
    assert.equal(isValidIP(Path.root('spec', 'podIP'), 'x')[0]!.message, 'spec.podIP: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
  });

  const cidr = 'must be a valid CIDR value';
  const cidrs: [string, string, string, string][] = [
    ['1.0.0.0/8', '', '', ''],
    ['0.0.0.0/0', '', '', ''],
    ['1.1.1.1/32', '', '', ''],
    ['2001:4860:4860::/48', '', '', ''],
    ['::/0', '', '', ''],
    ['::1/128', '', '', ''],
    ['2a00:79e0:2:0::/64', 'must be in canonical form ("2a00:79e0:2::/64")', '', ''],
    ['2001:DB8::/64', 'must be in canonical form ("2001:db8::/64")', '', ''],
    ['1.1.01.0/24', 'must not have leading 0s in IP', '', 'must not have leading 0s in IP'],
    ['::ffff:1.1.1.0/24', 'must not have an IPv4-mapped IPv6 address', '', 'must not have an IPv4-mapped IPv6 address'],
    ['::ffff:1.1.1.0/120', 'must not have an IPv4-mapped IPv6 address', '', 'must not have an IPv4-mapped IPv6 address'],
    ['1.2.3.4/24', 'must not have bits set beyond the prefix length', '', 'must not have bits set beyond the prefix length'],
    ['2001:db8::1/64', 'must not have bits set beyond the prefix length', '', 'must not have bits set beyond the prefix length'],
    ['192.168.0.0/016', 'must not have leading 0s', '', 'must not have leading 0s'],
    ['', cidr, cidr, cidr],
    ['junk', cidr, cidr, cidr],
    ['1.2.3.4', cidr, cidr, cidr],
    ['1.0.0.0/33', cidr, cidr, cidr],
    ['::/129', cidr, cidr, cidr],
    ['1.2.3.0/-1', cidr, cidr, cidr],
  ];
  for (const [input, strictErr, legacyErr, legacyStrictErr] of cidrs) {
    it(`CIDR ${JSON.stringify(input)}`, () => {
      const check = (errs: { detail: string }[], want: string): void => {
        if (want === '') assert.deepEqual(errs, []);
        else {
          assert.equal(errs.length, 1);
          assert.ok(errs[0]!.detail.includes(want), errs[0]!.detail);
        }
      };
      check(isValidCIDR(fp, input), strictErr);
      check(isValidCIDRForLegacyField(fp, input, false), legacyErr);
      check(isValidCIDRForLegacyField(fp, input, true), legacyStrictErr);
    });
  }

  it('IsValidInterfaceAddress', () => {
    assert.deepEqual(isValidInterfaceAddress(fp, '1.2.3.4/24'), []);
    assert.deepEqual(isValidInterfaceAddress(fp, '2001:db8::1/64'), []);
    assert.equal(isValidInterfaceAddress(fp, '::ffff:192.168.0.1/120')[0]!.detail, 'must be in canonical form ("192.168.0.1/24")');
    assert.equal(isValidInterfaceAddress(fp, '2001:DB8::1/64')[0]!.detail, 'must be in canonical form ("2001:db8::1/64")');
    assert.equal(isValidInterfaceAddress(fp, '1.2.3.4')[0]!.detail, 'must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)');
  });
});
