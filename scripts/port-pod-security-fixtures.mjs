// Ports k8s.io/pod-security-admission's test fixtures (test/testdata/<level>/v1.<n>/{pass,fail}/*.yaml)
// into test/conformance/pod-security/fixtures.json, as data: every distinct pod once, and one case
// per fixture file naming its level, policy version, expected verdict and the pod.
//
//   node scripts/port-pod-security-fixtures.mjs <git dir of kubernetes/pod-security-admission> [ref]
//
// The ref defaults to v0.35.6 (the pod-security-admission tag of Kubernetes 1.35.6). The
// expected error substring of each failing fixture is the one upstream's test asserts
// (test/fixtures_<check>.go: expectErrorSubstring, else the check ID); the table of them is
// below, as 1.35 has it.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const gitDir = process.argv[2];
const ref = process.argv[3] ?? 'v0.35.6';
if (!gitDir) {
  console.error('usage: node scripts/port-pod-security-fixtures.mjs <git dir> [ref]');
  process.exit(2);
}
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

/** The check each fixture file is named after (its name without the index), lowercased, to upstream's check ID and substring. */
const CHECKS = {
  allowprivilegeescalation: ['allowPrivilegeEscalation', 'allowPrivilegeEscalation'],
  apparmorprofile: ['appArmorProfile', 'forbidden AppArmor profile'],
  capabilities_baseline: ['capabilities_baseline', 'capabilities'],
  capabilities_restricted: ['capabilities_restricted', 'unrestricted capabilities'],
  hostnamespaces: ['hostNamespaces', 'host namespaces'],
  hostpathvolumes: ['hostPathVolumes', 'hostPath'],
  hostports: ['hostPorts', 'hostPort'],
  hostprobesandhostlifecycle: ['hostProbesAndHostLifecycle', 'probe or lifecycle host'],
  privileged: ['privileged', 'privileged'],
  procmount: ['procMount', 'procMount'],
  procmount_restricted: ['procMount_restricted', 'procMount'],
  restrictedvolumes: ['restrictedVolumes', 'restricted volume types'],
  runasnonroot: ['runAsNonRoot', 'runAsNonRoot'],
  runasuser: ['runAsUser', 'runAsUser'],
  selinuxoptions: ['seLinuxOptions', 'seLinuxOptions'],
  seccompprofile_baseline: ['seccompProfile_baseline', 'seccompProfile'],
  seccompprofile_restricted: ['seccompProfile_restricted', 'seccompProfile'],
  sysctls: ['sysctls', 'forbidden sysctl'],
  windowshostprocess: ['windowsHostProcess', 'hostProcess'],
};

/** Fixtures whose failing pods upstream marks failRequiresError: they fail validation before admission. */
const FAIL_REQUIRES_ERROR = new Set(['baseline/v1.35/procmount', 'restricted/v1.35/procmount']);

const commit = git('rev-parse', `${ref}^{commit}`).trim();
const entries = git('ls-tree', '-r', commit, 'test/testdata')
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const [meta, path] = line.split('\t');
    return { blob: meta.split(' ')[2], path };
  })
  .filter((e) => e.path.endsWith('.yaml'));

const pods = {};
const ids = new Map();
const cases = [];
for (const { blob, path } of entries) {
  const m = /^test\/testdata\/(baseline|restricted)\/v1\.(\d+)\/(pass|fail)\/([a-z_]+?)(\d*)\.yaml$/.exec(path);
  if (!m) throw new Error(`unexpected fixture path ${path}`);
  const [, level, minor, verdict, stem] = m;
  if (!ids.has(blob)) {
    const id = `p${ids.size}`;
    ids.set(blob, id);
    pods[id] = parse(git('cat-file', 'blob', blob));
  }
  const c = { level, version: `v1.${minor}`, verdict, file: path.slice('test/testdata/'.length), pod: ids.get(blob) };
  if (verdict === 'fail') {
    const check = CHECKS[stem];
    if (!check) throw new Error(`no check for ${path}`);
    c.check = check[0];
    c.substring = check[1];
    if (FAIL_REQUIRES_ERROR.has(`${level}/v1.${minor}/${stem}`)) c.requiresError = true;
  }
  cases.push(c);
}

const out = join(import.meta.dirname, '..', 'test', 'conformance', 'pod-security', 'fixtures.json');
const doc = {
  source: `kubernetes/pod-security-admission ${ref} (commit ${commit}), test/testdata; Apache-2.0, The Kubernetes Authors`,
  pods,
  cases,
};
writeFileSync(out, JSON.stringify(doc, null, 0).replace(/\},\{"level"/g, '},\n{"level"') + '\n');
console.log(`${cases.length} fixtures, ${ids.size} distinct pods -> ${out}`);
