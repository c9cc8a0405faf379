import { strict as assert } from 'node:assert';
import { nodeAddresses } from '../../../src/engine/kubelet/config';

describe('kubelet/config', () => {
  it('lays out node IPs and pod ranges as kind does, and keeps going past 254 nodes', () => {
    assert.deepEqual(nodeAddresses(0), { internalIP: '172.18.0.2', podCIDR: '10.244.1.0/24' });
    assert.deepEqual(nodeAddresses(2), { internalIP: '172.18.0.4', podCIDR: '10.244.3.0/24' });
    assert.deepEqual(nodeAddresses(253), { internalIP: '172.18.0.255', podCIDR: '10.244.254.0/24' });
    assert.deepEqual(nodeAddresses(254), { internalIP: '172.18.1.0', podCIDR: '10.128.255.0/24' });
    assert.deepEqual(nodeAddresses(4999), { internalIP: '172.18.19.137', podCIDR: '10.147.136.0/24' });
    const cidrs = new Set(Array.from({ length: 5000 }, (_, i) => nodeAddresses(i).podCIDR));
    assert.equal(cidrs.size, 5000);
  });
});
