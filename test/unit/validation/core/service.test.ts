import assert from 'node:assert/strict';
import { Path } from '../../../../src/engine/api/field';
import { defaultServiceNodePortRange, nodePortInRange, nodePortNotInRangeError, nodePortNotInRangeMessage, portRangeString } from '../../../../src/engine/apiserver/validation/core';
import { validate } from './support';

const service = (spec: object): object => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default', resourceVersion: '1' }, spec });

describe('core validation: Service', () => {
  it('prints duplicate ports as the internal ServicePort struct', () => {
    const errs = validate(service({ ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] }));
    assert.deepEqual(errs, ['spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}']);
  });

  it('keeps the primary cluster IP on update', () => {
    const old = service({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ port: 80 }] });
    const changed = service({ clusterIP: '10.96.0.11', clusterIPs: ['10.96.0.11'], ports: [{ port: 80 }] });
    assert.deepEqual(validate(changed, old), ['spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set']);
  });

  it('exports the node port allocator messages', () => {
    assert.equal(portRangeString(defaultServiceNodePortRange), '30000-32767');
    assert.equal(nodePortNotInRangeMessage(), 'provided port is not in the valid range. The range of valid ports is 30000-32767');
    assert.equal(
      nodePortNotInRangeError(Path.root('spec', 'ports').index(0).child('nodePort'), 8888).message,
      'spec.ports[0].nodePort: Invalid value: 8888: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    assert.equal(nodePortInRange(30000), true);
    assert.equal(nodePortInRange(32767), true);
    assert.equal(nodePortInRange(32768), false);
    assert.equal(nodePortInRange(29999), false);
  });
});
