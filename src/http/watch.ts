/**
 * Watches over HTTP: the response starts at once (headers flushed, chunked), then one JSON
 * object per line, {"type":...,"object":...}, until the client goes away, timeoutSeconds
 * passes, or an ERROR event (410 Expired for a compacted resourceVersion) ends it. Events the
 * engine delivers before the headers are out (the initial state) wait in order. Events delivered
 * together go out in one write: with hundreds of watchers, one TLS record per event would cost
 * more than the events themselves.
 */
import type { ApiRequest, WatchEvent } from '../engine/apiserver/request';
import type { JsonObject } from '../engine/api/types';
import type { Exchange } from './context';
import { encodeJson, statusBody } from './json';
import { contentTypeOf, type Output } from './negotiate';
import { baseHeaders, writeJson } from './respond';
import { transform, type TransformContext } from './table';

/** kube-apiserver's --min-request-timeout: a watch without timeoutSeconds lasts 1-2x this. */
const MIN_REQUEST_TIMEOUT_S = 1800;

/** Each shared (frozen) object is encoded once for all the watchers that receive it. */
const encoded = new WeakMap<object, string>();

function encodeObject(object: JsonObject): string {
  let s = encoded.get(object);
  if (s === undefined) {
    s = encodeJson(object).slice(0, -1);
    encoded.set(object, s);
  }
  return s;
}

function eventLine(e: WatchEvent, out: Output, table: TransformContext | undefined): string {
  if (e.type === 'ERROR') return `{"type":"ERROR","object":${encodeJson(statusBody(e.object as never)).slice(0, -1)}}\n`;
  if (out.as === 'object') return `{"type":"${e.type}","object":${encodeObject(e.object)}}\n`;
  const object = e.type === 'BOOKMARK' && table ? transform({ kind: 'List', items: [], metadata: e.object.metadata ?? {} }, out, table) : transform(e.object, out, table);
  if (table) table.noHeaders = true;
  return encodeJson({ type: e.type, object });
}

export async function serveWatch(x: Exchange, request: ApiRequest, out: Output, table: TransformContext | undefined, timeoutSeconds: number | undefined): Promise<void> {
  const { req, res } = x;
  let started = false;
  let ended = false;
  const pending: string[] = [];
  let batch = '';
  let flushing: ReturnType<typeof setImmediate> | undefined;
  let stop = (): void => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (): void => {
    flushing = undefined;
    if (batch && !ended) res.write(batch);
    batch = '';
  };

  const finish = (): void => {
    if (ended) return;
    ended = true;
    stop();
    if (timer) clearTimeout(timer);
    if (flushing) clearImmediate(flushing);
    x.facade.streams.delete(finish);
    if (started) res.end(batch || undefined);
  };
  const send = (line: string): void => {
    if (ended) return;
    if (!started) pending.push(line);
    else {
      batch += line;
      flushing ??= setImmediate(flush);
    }
  };

  const handle = await x.facade.api.watch(request, (e) => {
    if (ended) return;
    send(eventLine(e, out, table));
    if (e.type === 'ERROR') {
      if (started) finish();
      else pending.push('');
    }
  });
  stop = () => handle.stop();
  if (handle.response.code !== 200) {
    stop();
    writeJson(req, res, handle.response.code, handle.response.body, handle.response.warnings);
    return;
  }
  baseHeaders(res, handle.response.warnings);
  res.setHeader('Content-Type', contentTypeOf(out));
  res.writeHead(200);
  res.flushHeaders();
  started = true;
  x.facade.streams.add(finish);
  res.on('close', finish);
  for (const line of pending.splice(0)) {
    if (line === '') return finish();
    batch += line;
  }
  flush();
  const seconds = timeoutSeconds !== undefined && timeoutSeconds > 0 ? timeoutSeconds : MIN_REQUEST_TIMEOUT_S * (1 + Math.random());
  timer = setTimeout(finish, seconds * 1000);
}
