import assert from 'node:assert/strict';
import type { KubeObject } from '../../../../src/engine/api/types';
import { createOptions, validatePodEphemeralContainersUpdate } from '../../../../src/engine/apiserver/validation/core';
import { pod, validate } from './support';

describe('core validation: Pod', () => {
  it('reports requests above limits the way kubectl shows it', () => {
    const p = pod({ containers: [{ name: 'app', image: 'nginx', resources: { limits: { cpu: '500m' }, requests: { cpu: '600m' } } }] });
    assert.deepEqual(validate(p), ['spec.containers[0].resources.requests: Invalid value: "600m": must be less than or equal to cpu limit of 500m']);
  });

  it('accepts a defaulted minimal pod', () => {
    assert.deepEqual(validate(pod()), []);
  });

  it('lists the updatable fields when an update changes something else', () => {
    const old = pod({ containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80 }] }] });
    const changed = pod({ containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 81 }] }] });
    const errs = validate(changed, old);
    assert.equal(errs.length, 1);
    assert.ok(
      errs[0]!.startsWith(
        'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,' +
          '`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
      ),
      errs[0],
    );
    assert.match(errs[0]!, /^- \tcontainers\[0\]\.ports\[0\]\.containerPort: 80,$/m);
    assert.match(errs[0]!, /^\+ \tcontainers\[0\]\.ports\[0\]\.containerPort: 81,$/m);
  });

  it('compares resource quantities by value on update', () => {
    const old = pod({ containers: [{ name: 'app', image: 'nginx:1', resources: { requests: { cpu: '500m' } } }] });
    const same = pod({ containers: [{ name: 'app', image: 'nginx:2', resources: { requests: { cpu: '0.5' } } }] });
    assert.deepEqual(validate(same, old), []);
  });

  it('shows the Go struct of a security context as upstream prints it', () => {
    const p = pod({ containers: [{ name: 'app', image: 'nginx', securityContext: { privileged: true, allowPrivilegeEscalation: false } }] });
    assert.deepEqual(validate(p), [
      'spec.containers[0].securityContext: Invalid value: {"Capabilities":null,"Privileged":true,"SELinuxOptions":null,"WindowsOptions":null,"RunAsUser":null,"RunAsGroup":null,' +
        '"RunAsNonRoot":null,"ReadOnlyRootFilesystem":null,"AllowPrivilegeEscalation":false,"ProcMount":null,"SeccompProfile":null,"AppArmorProfile":null}: ' +
        'cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
    ]);
  });

  it('does not crash on malformed specs', () => {
    const shapes: object[] = [
      pod({ containers: 'nginx' }),
      pod({ containers: [5, null, 'x'] }),
      pod({ volumes: [{ name: 'v', emptyDir: 'yes' }], tolerations: [1], affinity: { nodeAffinity: 7 } }),
      pod({ containers: [{ name: 'app', image: 'nginx', resources: { limits: { cpu: 'lots' } } }] }),
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace: 'd' }, spec: 'nope' },
    ];
    for (const s of shapes) assert.doesNotThrow(() => validate(s), JSON.stringify(s));
  });

  it('reports a malformed quantity with the decoder message at its field', () => {
    const p = pod({ containers: [{ name: 'app', image: 'nginx', resources: { limits: { memory: 'lots' } } }] });
    assert.ok(
      validate(p).includes(
        "spec.containers[0].resources.limits[memory]: Invalid value: \"lots\": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      ),
    );
  });
});

describe('core validation: pods/ephemeralcontainers', () => {
  it('refuses to change an existing ephemeral container', () => {
    const debug = { name: 'debug', image: 'busybox:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' };
    const withDebug = (image: string): KubeObject =>
      ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'web', namespace: 'default', resourceVersion: '1' },
        spec: {
          restartPolicy: 'Always',
          dnsPolicy: 'ClusterFirst',
          terminationGracePeriodSeconds: 30,
          containers: [{ name: 'app', image: 'nginx:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' }],
          ephemeralContainers: [{ ...debug, image }],
        },
      }) as KubeObject;
    const errs = validatePodEphemeralContainersUpdate(withDebug('busybox:2'), withDebug('busybox:1'), createOptions(true)).map((e) => e.message);
    assert.equal(errs.length, 1);
    assert.ok(errs[0]!.startsWith('spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be changed\n'), errs[0]);
    assert.deepEqual(validatePodEphemeralContainersUpdate(withDebug('busybox:1'), withDebug('busybox:1'), createOptions(true)), []);
  });
});
