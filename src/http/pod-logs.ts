/** Serving pods/log: the engine resolves and authorizes, the log source supplies the text. */
import type { ServerResponse } from 'node:http';
import { StatusError } from '../engine/api/status';
import type { KubeObject } from '../engine/api/types';
import type { ApiRequest } from '../engine/apiserver/request';
import { limitBytes, resolveLogContainer } from '../engine/kubelet/logs';
import type { Pod } from '../engine/kubelet/api';
import type { Exchange } from './context';
import { podLogOptions, statusOnlyLogs } from './logs';
import { baseHeaders, writeJson, writeStatus } from './respond';

function startText(res: ServerResponse, warnings: readonly string[]): void {
  baseHeaders(res, warnings);
  res.setHeader('Content-Type', 'text/plain');
  res.writeHead(200);
}

export async function serveLogs(x: Exchange, request: ApiRequest): Promise<void> {
  const { req, res, facade } = x;
  const response = await facade.api.handle(request);
  if (response.code >= 300) return writeJson(req, res, response.code, response.body, response.warnings);
  const pod = response.body as KubeObject;
  const options = podLogOptions(x.url.searchParams, pod.metadata.name ?? '');
  if (options instanceof StatusError) return writeStatus(req, res, options);
  let container: string;
  try {
    container = resolveLogContainer(pod as Pod, options.container);
  } catch (err) {
    if (err instanceof StatusError) return writeStatus(req, res, err);
    throw err;
  }
  // A pod not yet on a node has no kubelet to ask: the API server streams nothing.
  const nodeName = (pod as Pod).spec?.nodeName;
  if (!nodeName) {
    startText(res, response.warnings);
    res.end();
    return;
  }
  const logRequest = { ...options, container };
  const stream = facade.logs?.open(pod, logRequest) ?? statusOnlyLogs(pod, logRequest);
  if (stream instanceof StatusError) return writeStatus(req, res, stream, response.warnings);
  startText(res, response.warnings);
  let written = limitBytes(stream.text, options.limitBytes);
  res.write(written);
  if (!options.follow || !stream.subscribe) {
    res.end();
    return;
  }
  res.flushHeaders();
  let budget = options.limitBytes === undefined ? Infinity : options.limitBytes - Buffer.byteLength(written);
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    unsubscribe();
    facade.streams.delete(end);
    res.end();
  };
  const unsubscribe = stream.subscribe(
    (text) => {
      written = limitBytes(text, budget === Infinity ? undefined : budget);
      budget -= Buffer.byteLength(written);
      res.write(written);
      if (budget <= 0) end();
    },
    end,
  );
  facade.streams.add(end);
  res.on('close', end);
}
