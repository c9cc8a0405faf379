/**
 * Watches over HTTP: the response starts at once (headers flushed, chunked), then one JSON
 * object per line, {"type":...,"object":...}, until the client goes away, timeoutSeconds
 * passes, or an ERROR event (410 Expired for a compacted resourceVersion) ends it. Events the
 * engine delivers before the headers are out (the initial state) wait in order. Events delivered
 * together go out in one write: with hundreds of watchers, one TLS record per event would cost
 * more than the events themselves (when a write happens: watch-writes.ts).
 */
import type { ApiRequest, WatchEvent } from '../engine/apiserver/request';
import type { Exchange } from './context';
import { encodeJson, statusBody } from './json';
import { contentTypeOf, type Output } from './negotiate';
import { baseHeaders, writeFailure } from './respond';
import { transform, type TransformContext } from './table';

/** kube-apiserver's --min-request-timeout: a watch without timeoutSeconds lasts 1-2x this. */
const MIN_REQUEST_TIMEOUT_S = 1800;

/**
 * Each shared (frozen) object's event line is encoded once, to bytes, for all the watchers that
 * receive it as plain JSON.
 */
const encoded = new WeakMap<object, Map<string, Buffer>>();

function sharedLine(e: WatchEvent): Buffer {
  let byType = encoded.get(e.object);
  if (!byType) encoded.set(e.object, (byType = new Map()));
  let line = byType.get(e.type);
  if (!line) byType.set(e.type, (line = Buffer.from(`{"type":"${e.type}","object":${encodeJson(e.object).slice(0, -1)}}\n`)));
  return line;
}

function eventLine(e: WatchEvent, out: Output, table: TransformContext | undefined): Buffer {
  if (e.type === 'ERROR') return Buffer.from(`{"type":"ERROR","object":${encodeJson(statusBody(e.object as never)).slice(0, -1)}}\n`);
  if (out.as === 'object') return sharedLine(e);
  const object = e.type === 'BOOKMARK' && table ? transform({ kind: 'List', items: [], metadata: e.object.metadata ?? {} }, out, table) : transform(e.object, out, table);
  if (table) table.noHeaders = true;
  return Buffer.from(encodeJson({ type: e.type, object }));
}

export async function serveWatch(x: Exchange, request: ApiRequest, out: Output, table: TransformContext | undefined, timeoutSeconds: number | undefined): Promise<void> {
  const { req, res } = x;
  let started = false;
  let ended = false;
  const pending: (Buffer | undefined)[] = [];
  let batch: Buffer[] = [];
  let stop = (): void => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (): void => {
    if (batch.length > 0 && !ended) res.write(batch.length === 1 ? batch[0] : Buffer.concat(batch));
    batch = [];
  };

  const finish = (): void => {
    if (ended) return;
    ended = true;
    stop();
    if (timer) clearTimeout(timer);
    x.facade.streams.delete(finish);
    if (started) res.end(batch.length > 0 ? Buffer.concat(batch) : undefined);
  };
  const send = (line: Buffer): void => {
    if (ended) return;
    if (!started) pending.push(line);
    else {
      if (batch.length === 0) x.facade.watchWrites.hold(flush);
      batch.push(line);
    }
  };

  const handle = await x.facade.api.watch(request, (e) => {
    if (ended) return;
    send(eventLine(e, out, table));
    if (e.type === 'ERROR') {
      if (started) finish();
      else pending.push(undefined);
    }
  });
  stop = () => handle.stop();
  if (handle.response.code !== 200) {
    stop();
    writeFailure(req, res, handle.response);
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
    if (!line) return finish();
    batch.push(line);
  }
  flush();
  const seconds = timeoutSeconds !== undefined && timeoutSeconds > 0 ? timeoutSeconds : MIN_REQUEST_TIMEOUT_S * (1 + Math.random());
  timer = setTimeout(finish, seconds * 1000);
}
