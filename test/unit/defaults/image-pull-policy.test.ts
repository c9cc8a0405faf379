import { strict as assert } from 'node:assert';
import { defaultPullPolicy, imageTag } from '../../../src/engine/apiserver/defaults/core/image-pull-policy';

// SetDefaults_Container's pull policy (pkg/apis/core/v1/defaults.go; TestSetDefaultsImagePullPolicy
// style cases) with ParseImageName's tag rules (pkg/util/parsers/parsers_test.go).
describe('defaults: image pull policy', () => {
  const table: [string, 'Always' | 'IfNotPresent'][] = [
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.27', 'IfNotPresent'],
    ['docker.io/library/nginx', 'Always'],
    ['registry.k8s.io/pause:3.10', 'IfNotPresent'],
    ['localhost:5000/app', 'Always'],
    ['localhost:5000/app:v1', 'IfNotPresent'],
    ['example.com:8443/team/app:latest', 'Always'],
    [`nginx@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
    [`nginx:latest@sha256:${'a'.repeat(64)}`, 'Always'],
    [`nginx:1.0@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
    // Unparsable references: the error is ignored and the policy is IfNotPresent.
    ['', 'IfNotPresent'],
    ['Nginx', 'IfNotPresent'],
    ['nginx:', 'IfNotPresent'],
    [`nginx@sha256:${'a'.repeat(63)}`, 'IfNotPresent'],
    [`nginx@md5:${'a'.repeat(32)}`, 'IfNotPresent'],
    ['a'.repeat(64), 'IfNotPresent'],
    ['[::1]:5000/app', 'Always'],
    ['MyRegistry.io/app:latest', 'Always'],
  ];
  for (const [image, want] of table) {
    it(`${JSON.stringify(image)} -> ${want}`, () => assert.equal(defaultPullPolicy(image), want));
  }

  it('reports the tag ParseImageName finds', () => {
    assert.equal(imageTag('ubuntu'), 'latest');
    assert.equal(imageTag('quay.io/coreos/etcd:v3.5.0'), 'v3.5.0');
    assert.equal(imageTag(`etcd@sha256:${'0'.repeat(64)}`), '');
    assert.equal(imageTag('has space'), undefined);
  });
});
