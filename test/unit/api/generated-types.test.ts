import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pod, PodCondition } from '../../../src/engine/api/generated/core-v1';
import type { Deployment } from '../../../src/engine/api/generated/apps-v1';
import type { EndpointSlice } from '../../../src/engine/api/generated/discovery-v1';
import type { JsonObject, KubeObject } from '../../../src/engine/api/types';

const root = join(__dirname, '..', '..', '..');
const generated = (file: string): string => readFileSync(join(root, 'src', 'engine', 'api', 'generated', file), 'utf8');

/** The body of one generated declaration. */
function declaration(file: string, name: string): string {
  const text = generated(file);
  const start = text.indexOf(`export type ${name} = `);
  assert.ok(start >= 0, `${name} in ${file}`);
  return text.slice(start, text.indexOf('\n};\n', start) + 3).replace(/^\s*(\/\*\*|\*).*\n/gm, '');
}

describe('api: generated types', () => {
  it('src/engine/api/generated is what scripts/gen-api-types.mjs makes of the vendored OpenAPI', function () {
    this.timeout(60_000);
    // --check regenerates every file in memory and compares it with the one checked in.
    const out = execFileSync(process.execPath, [join(root, 'scripts', 'gen-api-types.mjs'), '--check'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    assert.match(out, /up to date/);
  });

  it("a kind's apiVersion, kind and metadata are required, its spec and status optional", () => {
    const pod = declaration('core-v1.ts', 'Pod');
    assert.match(pod, /\n {2}apiVersion: string;/);
    assert.match(pod, /\n {2}kind: string;/);
    assert.match(pod, /\n {2}metadata: ObjectMeta;/);
    assert.match(pod, /\n {2}spec\?: PodSpec;/);
    assert.match(pod, /\n {2}status\?: PodStatus;/);
  });

  it('a non-pointer metav1.Time is null when zero; a *metav1.Time is left out; omitzero creationTimestamp is left out', () => {
    assert.match(declaration('core-v1.ts', 'PodCondition'), /lastTransitionTime\?: Time \| null;/);
    assert.match(declaration('core-v1.ts', 'PodStatus'), /startTime\?: Time;/);
    assert.match(declaration('meta-v1.ts', 'ObjectMeta'), /creationTimestamp\?: Time;/);
    assert.match(declaration('meta-v1.ts', 'ObjectMeta'), /deletionTimestamp\?: Time;/);
  });

  it('an optional slice without omitempty is null when nil (EndpointSlice.ports); required fields are not null unless validation lets them be nil (EndpointSlice.endpoints)', () => {
    assert.match(declaration('discovery-v1.ts', 'EndpointSlice'), /ports\?: EndpointPort\[\] \| null;/);
    assert.match(declaration('discovery-v1.ts', 'EndpointSlice'), /\n {2}endpoints: Endpoint\[\] \| null;/);
    assert.match(declaration('core-v1.ts', 'PodSpec'), /\n {2}containers: Container\[\];/);
  });

  it('int-or-string, Quantity and Time keep their wire shapes', () => {
    assert.match(generated('intstr.ts'), /export type IntOrString = number \| string;/);
    assert.match(generated('resource.ts'), /export type Quantity = string;/);
    assert.match(generated('meta-v1.ts'), /export type Time = string;/);
    assert.match(declaration('core-v1.ts', 'ResourceRequirements'), /limits\?: Record<string, Quantity>;/);
    assert.match(declaration('core-v1.ts', 'ServicePort'), /targetPort\?: IntOrString;/);
  });

  it('generated kinds are KubeObjects and JsonObjects, so generic code takes them without a cast', () => {
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } };
    const condition: PodCondition = { type: 'Ready', status: 'True', lastTransitionTime: null };
    const generic: KubeObject[] = [pod, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: {}, spec: { selector: {}, template: {} } } satisfies Deployment];
    const slice: EndpointSlice = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: {}, addressType: 'IPv4', endpoints: [], ports: null };
    const json: JsonObject[] = [pod, condition, slice];
    assert.equal(generic.length + json.length, 5);
  });
});
