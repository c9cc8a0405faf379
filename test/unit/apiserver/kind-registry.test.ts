import { strict as assert } from 'node:assert';
import { KindRegistry } from '../../../src/engine/apiserver/kind-registry';

describe('KindRegistry', () => {
  const registry = new KindRegistry<string>('validator');
  registry.register('', 'Pod', 'pods');
  registry.register('apps', 'Deployment', 'deployments');

  const lookups: [string, string, string | undefined][] = [
    ['', 'Pod', 'pods'],
    ['apps', 'Deployment', 'deployments'],
    ['apps', 'Pod', undefined],
    ['', 'Deployment', undefined],
    ['batch', 'Job', undefined],
  ];
  for (const [group, kind, want] of lookups) {
    it(`finds ${group || 'core'}/${kind}: ${want ?? 'nothing'}`, () => assert.equal(registry.get(group, kind), want));
  }

  const twice: [string, string, string][] = [
    ['', 'Pod', 'validator for /Pod registered twice'],
    ['apps', 'Deployment', 'validator for apps/Deployment registered twice'],
  ];
  for (const [group, kind, message] of twice) {
    it(`refuses ${group || 'core'}/${kind} a second time`, () => {
      assert.throws(() => registry.register(group, kind, 'again'), { message });
      assert.notEqual(registry.get(group, kind), 'again');
    });
  }
});
