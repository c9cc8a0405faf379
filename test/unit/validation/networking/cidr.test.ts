import { strict as assert } from 'node:assert';
import { parseCIDRSloppy } from '../../../../src/engine/api/ip';
import { cidrContains, isDualStackCIDRs } from '../../../../src/engine/apiserver/validation/networking/cidr';

const net = (s: string) => parseCIDRSloppy(s)!;

describe('CIDR helpers', () => {
  it('contains addresses of the same family only', () => {
    assert.equal(cidrContains(net('192.168.0.0/16'), net('192.168.3.0/24')), true);
    assert.equal(cidrContains(net('192.168.8.0/24'), net('192.168.9.0/24')), false);
    assert.equal(cidrContains(net('::/0'), net('10.0.0.0/8')), false);
    assert.equal(cidrContains(net('2001:db8::/32'), net('2001:db8:1::/48')), true);
  });

  it('recognises one range per family', () => {
    assert.equal(isDualStackCIDRs(['10.96.0.0/16', 'fd00::/64']), true);
    assert.equal(isDualStackCIDRs(['10.96.0.0/16', '10.97.0.0/16']), false);
    assert.equal(isDualStackCIDRs(['10.96.0.0/16', 'bad']), false);
  });
});
