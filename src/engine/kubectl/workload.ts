/**
 * `kubectl scale`, `kubectl rollout restart` and `kubectl rollout undo` as a client of the API
 * server, sending the requests kubectl sends: a merge patch of the scale subresource, a
 * strategic merge patch of the pod template's kubectl.kubernetes.io/restartedAt annotation, and
 * for an undo a JSON patch that puts the chosen ReplicaSet's template (without its
 * pod-template-hash label) and annotations back into the Deployment. Returns kubectl's output
 * line; a refusal throws an Error with kubectl's text.
 */
import type { GroupVersionResource, JsonObject, JsonValue } from '../api/types';
import type { Clock } from '../clock';
import type { Client } from '../client/client';
import { DAEMONSETS, DEPLOYMENTS, REPLICASETS, REPLICATIONCONTROLLERS, STATEFULSETS } from '../client/resources';
import { ANNOTATIONS_TO_SKIP, revision, RevisionError } from '../controllers/deployment/annotations';
import { POD_TEMPLATE_HASH_LABEL, type Deployment } from '../controllers/deployment/types';
import { deepEqual } from '../api/deep-equal';
import type { ReplicaSet } from '../controllers/util/types/workload';
import { setOwn } from '../api/own';

export const RESTARTED_AT_ANNOTATION = 'kubectl.kubernetes.io/restartedAt';
export const ROLLOUT_FIELD_MANAGER = 'kubectl-rollout';

export type ScalableKind = 'Deployment' | 'ReplicaSet' | 'StatefulSet' | 'ReplicationController';
export type RestartableKind = 'Deployment' | 'DaemonSet' | 'StatefulSet';

export interface ScalableRef {
  kind: ScalableKind;
  namespace?: string;
  name: string;
}

export interface WorkloadRef {
  kind: RestartableKind;
  namespace?: string;
  name: string;
}

export interface DeploymentRef {
  namespace?: string;
  name: string;
}

const RESOURCES: Readonly<Record<ScalableKind | RestartableKind, GroupVersionResource>> = {
  Deployment: DEPLOYMENTS,
  ReplicaSet: REPLICASETS,
  StatefulSet: STATEFULSETS,
  ReplicationController: REPLICATIONCONTROLLERS,
  DaemonSet: DAEMONSETS,
};

/** kubectl's name for an object: deployment.apps/web, replicationcontroller/web. */
function kubectlName(kind: ScalableKind | RestartableKind, name: string): string {
  const group = RESOURCES[kind].group;
  return `${kind.toLowerCase()}${group ? `.${group}` : ''}/${name}`;
}

export async function scale(client: Client, ref: ScalableRef, replicas: number): Promise<string> {
  await client.resource(RESOURCES[ref.kind], ref.namespace ?? 'default').patch(ref.name, 'merge', { spec: { replicas } }, { subresource: 'scale' });
  return `${kubectlName(ref.kind, ref.name)} scaled`;
}

export async function rolloutRestart(client: Client, ref: WorkloadRef, clock: Clock): Promise<string> {
  const resource = client.resource(RESOURCES[ref.kind], ref.namespace ?? 'default');
  const current = await resource.get(ref.name);
  const spec = (current.spec ?? {}) as JsonObject;
  if (ref.kind === 'Deployment' && spec.paused === true) throw new Error("can't restart paused deployment (run rollout resume first)");
  const patch = { spec: { template: { metadata: { annotations: { [RESTARTED_AT_ANNOTATION]: clock.rfc3339() } } } } };
  await resource.patch(ref.name, 'strategic', patch, { fieldManager: ROLLOUT_FIELD_MANAGER });
  return `${kubectlName(ref.kind, ref.name)} restarted`;
}

function withoutHash(template: ReplicaSet['spec']['template']): JsonObject {
  const copy = JSON.parse(JSON.stringify(template ?? {})) as JsonObject;
  const meta = (copy.metadata ?? {}) as JsonObject;
  const labels = (meta.labels ?? {}) as JsonObject;
  delete labels[POD_TEMPLATE_HASH_LABEL];
  return copy;
}

/** deploymentRevision: the ReplicaSet of `toRevision`, or (0) the one before the latest. */
function replicaSetForRevision(name: string, replicaSets: readonly ReplicaSet[], toRevision: number): ReplicaSet {
  let latest: { rs: ReplicaSet; rev: number } | undefined;
  let previous: { rs: ReplicaSet; rev: number } | undefined;
  for (const rs of replicaSets) {
    const rev = revision(rs);
    if (rev instanceof RevisionError) continue;
    if (toRevision === 0) {
      if (!latest || latest.rev < rev) {
        previous = latest;
        latest = { rs, rev };
      } else if (!previous || previous.rev < rev) {
        previous = { rs, rev };
      }
    } else if (rev === toRevision) {
      return rs;
    }
  }
  if (toRevision > 0) throw new Error(`unable to find specified revision ${toRevision} in history`);
  if (!previous) throw new Error(`no rollout history found for deployment "${name}"`);
  return previous.rs;
}

export async function rolloutUndo(client: Client, ref: DeploymentRef, toRevision = 0): Promise<string> {
  const namespace = ref.namespace ?? 'default';
  const display = kubectlName('Deployment', ref.name);
  if (toRevision < 0) throw new Error(`unable to find specified revision ${toRevision} in history`);
  const deployments = client.resource<Deployment>(DEPLOYMENTS, namespace);
  const deployment = await deployments.get(ref.name);
  const owned = (await client.resource<ReplicaSet>(REPLICASETS, namespace).list()).items.filter((rs) =>
    rs.metadata.ownerReferences?.some((o) => o.controller === true && o.uid === deployment.metadata.uid),
  );
  const rs = replicaSetForRevision(ref.name, owned, toRevision);
  if (deployment.spec.paused) throw new Error("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again");
  const target = withoutHash(rs.spec.template);
  if (deepEqual(target, withoutHash(deployment.spec.template))) {
    // kubectl names the revision it was asked for (0 for "the previous one").
    return `${display} skipped rollback (current template already matches revision ${toRevision})`;
  }
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(deployment.metadata.annotations ?? {})) if (ANNOTATIONS_TO_SKIP.has(k)) setOwn(annotations, k, v);
  for (const [k, v] of Object.entries(rs.metadata.annotations ?? {})) if (!ANNOTATIONS_TO_SKIP.has(k)) setOwn(annotations, k, v);
  const patch: JsonValue = [
    { op: 'replace', path: '/spec/template', value: target },
    { op: 'replace', path: '/metadata/annotations', value: annotations },
  ];
  await deployments.patch(ref.name, 'json', patch);
  return `${display} rolled back`;
}
