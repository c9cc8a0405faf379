/**
 * The details view's reads, as kubectl makes them, through the API server as the panel's
 * client: the object (GET now, or a LIST at the exact revision when replaying, which answers
 * 410 Gone once compaction removed it), its Events (a LIST with kubectl describe's field
 * selector on involvedObject), and a pod's container logs from its node's kubelet (GET
 * pods/log authorizes; the kubelet holds the text). Logs have no revisions: they are now's.
 */
import type { JsonObject, KubeObject } from '../../engine/api/types';
import type { Client } from '../../engine/client';
import { escapeValue } from '../../engine/api/fieldselector';
import { obj, str } from '../../engine/printers/format';
import type { KubeletLogSource } from '../../engine/kubelet/log-source';
import type { ContainerLog, DetailsMessage, EventRow, EventsAnswer, GetDetailsMessage, ObjectAtRevision } from '../../protocol/panel';
import { readAtRevision, objectYaml } from './time-travel';
import { conditionViews, VIEW_RESOURCES } from './state-views';

/** A log's tail at most: its last lines (kubectl logs --tail), and no more bytes than this. */
export const MAX_LOG_LINES = 500;
export const MAX_LOG_BYTES = 64 * 1024;
/** Events listed at most (the newest). */
const MAX_EVENTS = 200;

export async function readDetails(client: Client, logs: KubeletLogSource | undefined, ask: GetDetailsMessage): Promise<DetailsMessage> {
  const { group, version, resource } = VIEW_RESOURCES[ask.kind];
  const ref = { group, resource, name: ask.name, ...(ask.namespace ? { namespace: ask.namespace } : {}) };
  let object: ObjectAtRevision;
  let live: KubeObject | undefined;
  let stored: JsonObject | undefined;
  if (ask.revision !== undefined) {
    const read = await readAtRevision(client, ref, ask.revision);
    object = read.answer;
    stored = read.object;
  } else {
    const res = await client.request({ verb: 'get', group, version, resource, name: ask.name, ...(ask.namespace ? { namespace: ask.namespace } : {}) });
    const revision = Number((res.body.metadata as JsonObject | undefined)?.resourceVersion) || 0;
    if (res.code === 404) object = { state: 'absent', revision };
    else if (res.code >= 400) object = { state: 'error', revision, code: res.code, message: message(res.body) };
    else {
      live = res.body as KubeObject;
      stored = res.body;
      object = { state: 'found', revision, yaml: objectYaml(res.body) };
    }
  }
  const events = await readEvents(client, ask);
  const out: DetailsMessage = { type: 'details', requestId: ask.requestId, object, events, ...(stored ? { conditions: conditionViews(stored.status) } : {}) };
  if (ask.kind !== 'Pod' || !ask.namespace) return out;
  return { ...out, logs: await readLogs(client, logs, ask.namespace, ask.name, live) };
}

async function readEvents(client: Client, ask: GetDetailsMessage): Promise<EventsAnswer> {
  const selector = [`involvedObject.kind=${ask.kind}`, `involvedObject.name=${escapeValue(ask.name)}`, ...(ask.namespace ? [`involvedObject.namespace=${ask.namespace}`] : [])].join(',');
  const res = await client.request({
    verb: 'list',
    group: '',
    version: 'v1',
    resource: 'events',
    ...(ask.namespace ? { namespace: ask.namespace } : {}),
    options: { fieldSelector: selector, ...(ask.revision !== undefined ? { resourceVersion: String(ask.revision), resourceVersionMatch: 'Exact' } : {}) },
  });
  if (res.code === 410) return { state: 'compacted', message: message(res.body) };
  if (res.code >= 400) return { state: 'error', message: `${res.code}: ${message(res.body)}` };
  const items = Array.isArray(res.body.items) ? (res.body.items as KubeObject[]) : [];
  const rows = items.map(eventRow).sort((a, b) => a.time - b.time);
  return { state: 'found', events: rows.slice(-MAX_EVENTS) };
}

function eventRow(ev: KubeObject): EventRow {
  const e = ev as JsonObject;
  const stamp = str(e.lastTimestamp) || str(e.eventTime) || str(ev.metadata.creationTimestamp);
  const source = obj(e.source);
  return {
    type: str(e.type),
    reason: str(e.reason),
    time: Date.parse(stamp) || 0,
    from: str(source.component) || str(e.reportingComponent) || str(e.reportingController),
    message: str(e.message),
    count: typeof e.count === 'number' ? e.count : 1,
  };
}

async function readLogs(client: Client, logs: KubeletLogSource | undefined, namespace: string, name: string, pod: KubeObject | undefined): Promise<ContainerLog[]> {
  // GET pods/log authorizes the read and answers with the pod, as for kubectl logs.
  const res = await client.request({ verb: 'get', group: '', version: 'v1', resource: 'pods', subresource: 'log', namespace, name });
  if (res.code >= 400) return [{ container: '', error: message(res.body) }];
  const current = pod ?? (res.body as KubeObject);
  const containers = (obj(current.spec).containers as JsonObject[] | undefined) ?? [];
  if (!obj(current.spec).nodeName) return containers.map((c) => ({ container: str(c.name), error: 'not scheduled to a node yet: no kubelet holds a log' }));
  return containers.map((c) => {
    const container = str(c.name);
    const stream = logs?.open(current, { container, tailLines: MAX_LOG_LINES });
    if (stream === undefined) return { container, error: 'the node has no running kubelet to ask' };
    if ('text' in stream) return { container, text: tail(stream.text) };
    return { container, error: stream.status.message ?? String(stream) };
  });
}

function tail(text: string): string {
  return text.length <= MAX_LOG_BYTES ? text : text.slice(text.length - MAX_LOG_BYTES);
}

function message(body: JsonObject): string {
  return typeof body.message === 'string' ? body.message : JSON.stringify(body);
}
