/**
 * Table and PartialObjectMetadata responses: the API server's transformResponseObject. A list
 * or object the engine returned becomes the Table kubectl asked for, printed at the cluster's
 * virtual time with the resource's printer (custom resources with their CRD's columns).
 */
import { isObject, type JsonObject, type KubeObject } from '../engine/api/types';
import type { ResourceInfo } from '../engine/api/registry/types';
import { BUILTIN_RESOURCES } from '../engine/api/registry';
import { customResourcePrinter, printerFor, printTable, scalePrinter, type IncludeObject, type PrinterColumn, type Printer, type Table } from '../engine/printers';
import type { ObjectReader } from '../engine/apiserver/storage/reader';
import type { Output } from './negotiate';

const BUILTIN = new Set(BUILTIN_RESOURCES.map((r) => `${r.group}/${r.resource}`));

/** additionalPrinterColumns of the CRD's served version. */
async function crdColumns(reader: ObjectReader, info: ResourceInfo): Promise<PrinterColumn[]> {
  const crd = await reader.get({ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }, '', `${info.resource}.${info.group}`);
  const versions = crd && isObject(crd.spec) && Array.isArray(crd.spec.versions) ? crd.spec.versions : [];
  const version = versions.find((v) => isObject(v) && v.name === info.version);
  const columns = isObject(version) && Array.isArray(version.additionalPrinterColumns) ? version.additionalPrinterColumns : [];
  return columns.filter(isObject).map((c) => ({
    name: String(c.name ?? ''),
    type: String(c.type ?? ''),
    format: typeof c.format === 'string' ? c.format : undefined,
    description: typeof c.description === 'string' ? c.description : undefined,
    priority: typeof c.priority === 'number' ? c.priority : undefined,
    jsonPath: String(c.jsonPath ?? ''),
  }));
}

export async function printerOf(reader: ObjectReader, info: ResourceInfo, subresource: string): Promise<Printer> {
  if (subresource === 'scale') return scalePrinter;
  if (BUILTIN.has(`${info.group}/${info.resource}`) || !info.storagePrefix) return printerFor(info.group, info.resource);
  return customResourcePrinter(await crdColumns(reader, info));
}

const isList = (body: JsonObject): boolean => Array.isArray(body.items);

function listMeta(body: JsonObject): Table['metadata'] {
  const m = isObject(body.metadata) ? body.metadata : {};
  const out: Table['metadata'] = {};
  if (typeof m.resourceVersion === 'string') out.resourceVersion = m.resourceVersion;
  if (typeof m.continue === 'string') out.continue = m.continue;
  if (typeof m.remainingItemCount === 'number') out.remainingItemCount = m.remainingItemCount;
  return out;
}

export interface TransformContext {
  printer: Printer;
  now: number;
  include: IncludeObject | undefined;
  /** Set once a watch has sent the column definitions. */
  noHeaders?: boolean;
}

/** The response body in the negotiated form. */
export function transform(body: JsonObject, out: Output, ctx: TransformContext | undefined): JsonObject {
  if (out.as === 'object' || out.as === 'APIGroupDiscoveryList' || body.kind === 'Status') return body;
  const list = isList(body);
  const items = (list ? (body.items as unknown[]) : [body]).filter(isObject) as KubeObject[];
  if (out.as === 'Table') {
    if (!ctx) return body;
    const meta = list ? listMeta(body) : { resourceVersion: items[0]?.metadata.resourceVersion ?? '' };
    const table = printTable(ctx.printer, items, ctx.now, { includeObject: ctx.include ?? 'Metadata', listMeta: meta, noHeaders: ctx.noHeaders });
    return { ...table, apiVersion: `meta.k8s.io/${out.version}` } as unknown as JsonObject;
  }
  const apiVersion = `meta.k8s.io/${out.version}`;
  const partial = (o: KubeObject): JsonObject => ({ kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata as JsonObject });
  if (out.as === 'PartialObjectMetadataList' || list) return { kind: 'PartialObjectMetadataList', apiVersion, metadata: listMeta(body), items: items.map(partial) };
  return partial(items[0]!);
}
