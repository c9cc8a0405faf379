import { strict as assert } from 'node:assert';
import { resolveRequestInfo } from '../../../src/engine/apiserver/request-info';

const info = (method: string, url: string) => {
  const u = new URL(url, 'http://x');
  const r = resolveRequestInfo(method, u.pathname, u.searchParams);
  return [r.verb, r.apiGroup, r.apiVersion, r.namespace, r.resource, r.subresource, r.name].join('|');
};

describe('request info', () => {
  it('resolves verbs, groups, namespaces, names and subresources as kube-apiserver does', () => {
    assert.equal(info('GET', '/api/v1/namespaces/default/pods'), 'list||v1|default|pods||');
    assert.equal(info('GET', '/api/v1/namespaces/default/pods?watch=true'), 'watch||v1|default|pods||');
    assert.equal(info('GET', '/api/v1/namespaces/default/pods/web'), 'get||v1|default|pods||web');
    assert.equal(info('PUT', '/apis/apps/v1/namespaces/default/deployments/web/status'), 'update|apps|v1|default|deployments|status|web');
    assert.equal(info('PATCH', '/apis/apps/v1/namespaces/default/deployments/web/scale'), 'patch|apps|v1|default|deployments|scale|web');
    assert.equal(info('DELETE', '/api/v1/namespaces/default/pods'), 'deletecollection||v1|default|pods||');
    assert.equal(info('POST', '/api/v1/namespaces/default/pods/web/binding'), 'create||v1|default|pods|binding|web');
    assert.equal(info('GET', '/api/v1/namespaces/team'), 'get||v1|team|namespaces||team');
    assert.equal(info('PUT', '/api/v1/namespaces/team/finalize'), 'update||v1|team|namespaces|finalize|team');
    assert.equal(info('GET', '/api/v1/nodes?fieldSelector=metadata.name%3Dn1'), 'list||v1||nodes||n1');
    assert.equal(info('GET', '/api/v1/watch/namespaces/default/pods'), 'watch||v1|default|pods||');
    const nonResource = resolveRequestInfo('GET', '/healthz', new URLSearchParams());
    assert.equal(nonResource.isResourceRequest, false);
    assert.equal(nonResource.verb, 'get');
  });
});
