/**
 * `npm run bench -- authz [--json] [--bindings N]`: what an RBAC decision costs with many
 * bindings (default 5,000 ClusterRoleBindings and 5,000 RoleBindings in one namespace, each for
 * another user): the index build on the first decision, then decisions per second for a user
 * one binding allows and for one nobody binds, next to one cached() list of the bindings (what
 * a decision that visited every binding would at least pay). Replaces the timed unit test.
 */
import { createRbacAuthorizer } from '../src/engine/apiserver/authz/rbac';
import type { KubeObject } from '../src/engine/api/types';
import type { GroupResource, ObjectReader } from '../src/engine/apiserver/storage/reader';
import { MemoryReader, attrs, clusterRole, clusterRoleBinding, roleBinding, user } from '../test/unit/authz/memory-reader';
import { Reporter, nowMs, type BenchSuite } from './report';

function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? Number(args[i + 1]) : fallback;
}

const suite: BenchSuite = async (args) => {
  const report = Reporter.fromArgs(args);
  const bindings = option(args, 'bindings', 5000);
  const objs = [clusterRole('view', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])];
  for (let i = 0; i < bindings; i++) {
    objs.push(clusterRoleBinding(`user-${String(i).padStart(5, '0')}`, 'view', `User:user-${i}`));
    objs.push(roleBinding('dev', `rb-${String(i).padStart(5, '0')}`, { kind: 'ClusterRole', name: 'view' }, `User:other-${i}`));
  }
  const reader = new MemoryReader(objs);
  // The watch cache keeps its lists; the test reader sorts on every call, so the authorizer reads
  // through lists kept as they were (the bindings do not change while it is measured).
  const lists = new Map<string, KubeObject[]>();
  const kept: ObjectReader = Object.assign(Object.create(reader) as ObjectReader, {
    cached: (r: GroupResource, namespace = ''): KubeObject[] => {
      const key = `${r.group}/${r.resource}/${namespace}`;
      let list = lists.get(key);
      if (!list) lists.set(key, (list = reader.cached(r, namespace)));
      return list;
    },
  });
  const rbac = createRbacAuthorizer(kept);
  const allowed = attrs(user(`user-${bindings - 1}`), { resource: 'pods', namespace: 'dev' });
  const denied = attrs(user('nobody'), { resource: 'pods', namespace: 'dev' });

  const t0 = nowMs();
  if (rbac.authorize(allowed).decision !== 'Allow') throw new Error('the bound user is not allowed');
  if (rbac.authorize(denied).decision !== 'NoOpinion') throw new Error('the unbound user is allowed');
  const firstMs = nowMs() - t0;

  const timed = (runs: number, f: () => void): number => {
    const start = nowMs();
    for (let i = 0; i < runs; i++) f();
    return (nowMs() - start) / runs;
  };
  const runs = 2000;
  const allowMs = timed(runs, () => rbac.authorize(allowed));
  const denyMs = timed(runs, () => rbac.authorize(denied));
  // The test reader's cached() sorts its keys on every call, as the watch cache's list does.
  const listMs = timed(50, () => reader.cached({ group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' }));
  report.record({
    bench: 'rbac-decision',
    clusterRoleBindings: bindings,
    roleBindings: bindings,
    firstDecisionsMs: Number(firstMs.toFixed(3)),
    allowUs: Number((allowMs * 1000).toFixed(2)),
    denyUs: Number((denyMs * 1000).toFixed(2)),
    decisionsPerSecond: Math.round(2000 / (allowMs + denyMs)),
    cachedListUs: Number((listMs * 1000).toFixed(2)),
    listOverDecision: Number((listMs / ((allowMs + denyMs) / 2)).toFixed(1)),
  });
};

export default suite;
