/**
 * Upstream's Pod Security fixtures (k8s.io/pod-security-admission test/testdata, ported as data
 * by scripts/port-pod-security-fixtures.mjs; see PROVENANCE.md) run through the API server's
 * real admission path as upstream's test/run.go drives a cluster: for every level and policy
 * version, a namespace enforcing it, and each fixture pod created there as "test" with the
 * default service account (dry run).
 *
 * - pass fixtures are admitted (201);
 * - fail fixtures are refused with 403, the message naming the level and version and holding
 *   the substring upstream's own test asserts; fixtures upstream marks failRequiresError fail
 *   validation first (422);
 * - the exact message of every refusal is compared with messages.json (regenerate with
 *   UPDATE_POD_SECURITY_MESSAGES=1 and review the diff against upstream's check texts);
 * - the fixture pod as the template of Deployment "test" in the same namespace is admitted, with
 *   the same text as a `would violate PodSecurity` warning (fail fixtures) or no warning (pass);
 *   with a failRequiresError fixture the Deployment is refused too.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JsonObject } from '../../../src/engine/api/types';
import { harness, type Harness } from '../../unit/apiserver/harness';

interface FixtureCase {
  level: 'baseline' | 'restricted';
  version: string;
  verdict: 'pass' | 'fail';
  file: string;
  pod: string;
  check?: string;
  substring?: string;
  requiresError?: boolean;
}

interface Fixtures {
  source: string;
  pods: Record<string, JsonObject>;
  cases: FixtureCase[];
}

const dir = __dirname;
const fixtures = JSON.parse(fs.readFileSync(path.join(dir, 'fixtures.json'), 'utf8')) as Fixtures;
const messagesFile = path.join(dir, 'messages.json');
const update = process.env.UPDATE_POD_SECURITY_MESSAGES === '1';
const expectedMessages: Record<string, string> = fs.existsSync(messagesFile) ? JSON.parse(fs.readFileSync(messagesFile, 'utf8')) : {};

const nsName = (c: FixtureCase): string => `${c.level}-${c.version.replace('.', '-')}`;

describe('PodSecurity: upstream fixtures through admission', function () {
  this.timeout(300_000);
  let h: Harness;
  before(async () => {
    h = await harness();
    const seen = new Set<string>();
    for (const c of fixtures.cases) {
      const ns = nsName(c);
      if (seen.has(ns)) continue;
      seen.add(ns);
      const labels = { 'pod-security.kubernetes.io/enforce': c.level, 'pod-security.kubernetes.io/enforce-version': c.version };
      await h.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels } });
      await h.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }, ns);
    }
  });
  after(() => h.close());

  it(`admits and refuses every fixture as upstream does (${fixtures.cases.length} fixtures)`, async () => {
    const problems: string[] = [];
    const messages: Record<string, string> = {};
    for (const c of fixtures.cases) {
      const pod = structuredClone(fixtures.pods[c.pod]!);
      const ns = nsName(c);
      (pod.metadata as JsonObject).name = 'test';
      (pod.spec as JsonObject).serviceAccountName = 'default';
      const res = await h.req({ verb: 'create', resource: 'pods', namespace: ns, body: { object: pod }, options: { dryRun: true } });
      const message = String(res.body.message ?? '');
      if (c.verdict === 'pass') {
        if (res.code !== 201) problems.push(`${c.file}: expected admission, got ${res.code} ${message}`);
        continue;
      }
      if (c.requiresError) {
        if (res.code < 400) problems.push(`${c.file}: expected a refusal, got ${res.code}`);
        else messages[c.file] = message;
        continue;
      }
      const prefix = `pods "test" is forbidden: violates PodSecurity "${c.level}:${c.version}": `;
      if (res.code !== 403) problems.push(`${c.file}: expected 403, got ${res.code} ${message}`);
      else if (!message.startsWith(prefix)) problems.push(`${c.file}: message does not start with ${prefix}: ${message}`);
      else if (!message.includes(c.substring!)) problems.push(`${c.file}: message lacks ${JSON.stringify(c.substring)}: ${message}`);
      messages[c.file] = message;
    }
    if (update) fs.writeFileSync(messagesFile, JSON.stringify(messages, null, 1) + '\n');
    else {
      for (const [file, message] of Object.entries(messages)) {
        if (expectedMessages[file] !== message) problems.push(`${file}: message\n    got      ${message}\n    expected ${expectedMessages[file]}`);
      }
      for (const file of Object.keys(expectedMessages)) if (!(file in messages)) problems.push(`${file}: expected a refusal with a message`);
    }
    assert.equal(problems.length, 0, `${problems.length} fixtures differ:\n${problems.slice(0, 30).join('\n')}`);
  });

  it('warns on a Deployment whose template is a fixture pod, with the text the pod is refused with', async () => {
    const problems: string[] = [];
    for (const c of fixtures.cases) {
      const pod = structuredClone(fixtures.pods[c.pod]!);
      const meta = pod.metadata as JsonObject;
      const template = { metadata: { ...meta, labels: { ...((meta.labels as JsonObject) ?? {}), test: 'true' } }, spec: pod.spec };
      const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'test' }, spec: { selector: { matchLabels: { test: 'true' } }, template } };
      const res = await h.req({ verb: 'create', group: 'apps', version: 'v1', resource: 'deployments', namespace: nsName(c), body: { object: deploy }, options: { dryRun: true } });
      if (c.requiresError) {
        if (res.code < 400) problems.push(`${c.file}: expected the Deployment to be refused, got ${res.code}`);
        continue;
      }
      if (res.code !== 201) {
        problems.push(`${c.file}: Deployment refused: ${res.code} ${String(res.body.message)}`);
        continue;
      }
      const psa = res.warnings.filter((w) => w.startsWith('would violate PodSecurity'));
      if (c.verdict === 'pass') {
        if (psa.length > 0) problems.push(`${c.file}: unexpected warning ${psa[0]}`);
        continue;
      }
      const refused = expectedMessages[c.file] ?? '';
      const text = refused.replace(/^pods "[^"]*" is forbidden: violates /, 'would violate ');
      if (psa.length !== 1 || (!update && psa[0] !== text)) problems.push(`${c.file}: warnings ${JSON.stringify(psa)}, expected ${JSON.stringify(text)}`);
    }
    assert.equal(problems.length, 0, `${problems.length} fixtures differ:\n${problems.slice(0, 30).join('\n')}`);
  });
});
