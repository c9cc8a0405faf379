/** --admission-control-config-file: the PodSecurity plugin's configuration, inline or by path. */
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { podSecurityFromAdmissionConfig } from '../../../src/cli/admission-config';
import { PodSecurity } from '../../../src/engine/apiserver/admission/podsecurity/plugin';

const dir = mkdtempSync(join(tmpdir(), 'kubesim-admission-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const PSA = `apiVersion: pod-security.admission.config.k8s.io/v1
kind: PodSecurityConfiguration
defaults:
  enforce: baseline
exemptions:
  namespaces: [kube-system]
`;

describe('cli: admission control configuration', () => {
  it('reads the PodSecurity configuration inline or from its path', () => {
    const inline = file('inline.yaml', `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n${PSA.replace(/^/gm, '    ')}`);
    const c = podSecurityFromAdmissionConfig(inline);
    assert.ok(c && typeof c !== 'string');
    assert.equal(new PodSecurity(c).defaults.enforce.level, 'baseline');
    file('psa.yaml', PSA);
    const byPath = podSecurityFromAdmissionConfig(file('path.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  path: psa.yaml\n'));
    assert.deepEqual(byPath, c);
    assert.equal(podSecurityFromAdmissionConfig(file('none.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: []\n')), undefined);
  });

  it('refuses what is not an AdmissionConfiguration or a PodSecurityConfiguration', () => {
    assert.match(String(podSecurityFromAdmissionConfig(file('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\n'))), /not an apiserver.config.k8s.io AdmissionConfiguration/);
    const wrong = file('wrong.yaml', 'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodSecurity\n  configuration:\n    apiVersion: v1\n    kind: ConfigMap\n');
    assert.match(String(podSecurityFromAdmissionConfig(wrong)), /expected pod-security.admission.config.k8s.io\/v1 PodSecurityConfiguration/);
  });
});
