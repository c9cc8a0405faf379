/**
 * Node: taints (also the legacy annotation), pod CIDRs (set once, one per IP family), provider
 * ID (set once), resource quantities in status, and the deprecated config source.
 */
import { duplicate, FieldError, forbidden, invalid, Path, required, type ErrorList } from '../../../api/field';
import { isIPv4, isValidCIDRForLegacyField, parseCIDRSloppy } from '../../../api/ip';
import { isConfigMapKey, isValidLabelValue, nameIsDNSSubdomain, validateNamespaceName } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { registerValidator } from '../registry';
import { nodeAddressStruct, nodeConfigSourceStruct, taintStruct } from './gostruct';
import { entries, obj, objs, semanticEqual, str, strMap, strs, type Obj } from './json';
import { validateLabelName, validateObjectMeta, validateObjectMetaUpdate } from './meta';
import { parseQuantity } from './quantity';
import { validateResourceQuantityValue } from './resources';
import { validateTaintEffect } from './tolerations';
import { setOwn } from '../../../api/own';

const taintsAnnotation = 'scheduler.alpha.kubernetes.io/taints';
const preferAvoidPodsAnnotation = 'scheduler.alpha.kubernetes.io/preferAvoidPods';
const specOf = (n: KubeObject): Obj => obj(n['spec']) ?? {};
const statusOf = (n: KubeObject): Obj => obj(n['status']) ?? {};

function validateNodeTaints(taints: readonly Obj[], fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const unique = new Map<string, Set<string>>();
  taints.forEach((t, i) => {
    const idxPath = fldPath.index(i);
    const key = str(t['key']);
    const value = str(t['value']);
    const effect = str(t['effect']);
    errs.push(...validateLabelName(key, idxPath.child('key')));
    const msgs = isValidLabelValue(value);
    if (msgs.length > 0) errs.push(invalid(idxPath.child('value'), value, msgs.join(';')));
    errs.push(...validateTaintEffect(effect, false, idxPath.child('effect')));
    const keys = unique.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      errs.push(new FieldError('FieldValueDuplicate', idxPath.toString(), taintStruct(t), 'taints must be unique by key and effect pair'));
      return;
    }
    keys.add(key);
    unique.set(effect, keys);
  });
  return errs;
}

/** Decoding into internal structs without JSON tags matches keys case-insensitively. */
function lowerKeys(v: unknown): Obj {
  const o = obj(v) ?? {};
  const out: Obj = {};
  for (const [k, val] of Object.entries(o)) setOwn(out, k.toLowerCase(), val);
  return out;
}

function validateNodeSpecificAnnotations(annotations: unknown, fldPath: Path): ErrorList {
  const ann = new Map(strMap(annotations));
  const errs: ErrorList = [];
  const taints = ann.get(taintsAnnotation) ?? '';
  if (taints !== '') {
    try {
      const parsed: unknown = JSON.parse(taints);
      const list = Array.isArray(parsed) ? parsed.map(lowerKeys) : [];
      if (list.length > 0) errs.push(...validateNodeTaints(list, fldPath.child(taintsAnnotation)));
    } catch (e) {
      errs.push(invalid(fldPath, taintsAnnotation, e instanceof Error ? e.message : String(e)));
    }
  }
  const avoid = ann.get(preferAvoidPodsAnnotation) ?? '';
  if (avoid !== '') {
    try {
      const parsed = obj(JSON.parse(avoid));
      objs(parsed?.['preferAvoidPods']).forEach((entry, i) => {
        const idxPath = fldPath.child('AvoidPods').child(preferAvoidPodsAnnotation).index(i);
        const controller = obj(obj(entry['podSignature'])?.['podController']);
        if (!controller) errs.push(required(idxPath.child('PodSignature'), ''));
        else if (controller['controller'] !== true) {
          errs.push(invalid(idxPath.child('PodSignature', 'PodController', 'Controller'), false, 'must point to a controller'));
        }
      });
    } catch (e) {
      errs.push(invalid(fldPath.child('AvoidPods'), preferAvoidPodsAnnotation, e instanceof Error ? e.message : String(e)));
    }
  }
  return errs;
}

function validateNodeResources(node: KubeObject): ErrorList {
  const errs: ErrorList = [];
  for (const list of ['capacity', 'allocatable'] as const) {
    for (const [name, v] of entries(statusOf(node)[list])) {
      const q = parseQuantity(v);
      if (q) errs.push(...validateResourceQuantityValue(name, q, Path.root('status', list, name)));
    }
  }
  return errs;
}

/** The internal PodCIDRs: v1 podCIDR alone counts as a one-element podCIDRs. */
function podCIDRsOf(spec: Obj): string[] {
  const cidrs = strs(spec['podCIDRs']);
  if (cidrs.length > 0) return cidrs;
  const single = str(spec['podCIDR']);
  return single === '' ? [] : [single];
}

function validateNode(node: KubeObject): ErrorList {
  const metaPath = Path.root('metadata');
  const errs = validateObjectMeta(node.metadata, false, nameIsDNSSubdomain, metaPath);
  errs.push(...validateNodeSpecificAnnotations(node.metadata.annotations, metaPath.child('annotations')));
  const spec = specOf(node);
  const taints = objs(spec['taints']);
  // Upstream reports spec taints under metadata.
  if (taints.length > 0) errs.push(...validateNodeTaints(taints, metaPath.child('taints')));
  errs.push(...validateNodeResources(node));
  const cidrs = podCIDRsOf(spec);
  const cidrsPath = Path.root('spec', 'podCIDRs');
  cidrs.forEach((c, i) => errs.push(...isValidCIDRForLegacyField(cidrsPath.index(i), c, false)));
  if (cidrs.length > 1) {
    const nets = cidrs.map(parseCIDRSloppy);
    const dualStack = nets.some((n) => n && isIPv4(n.ip)) && nets.some((n) => n && !isIPv4(n.ip));
    if (!dualStack || cidrs.length > 2) errs.push(invalid(cidrsPath, cidrs, 'may specify no more than one CIDR for each IP family'));
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(duplicate(cidrsPath.index(i), c));
      seen.add(c);
    });
  }
  return errs;
}

function validateConfigMapNodeConfigSource(source: Obj, fldPath: Path): ErrorList {
  const errs: ErrorList = [];
  const ns = str(source['namespace']);
  if (ns === '') errs.push(required(fldPath.child('namespace'), 'namespace must be set'));
  else errs.push(...validateNamespaceName(ns, false).map((m) => invalid(fldPath.child('namespace'), ns, m)));
  const name = str(source['name']);
  if (name === '') errs.push(required(fldPath.child('name'), 'name must be set'));
  else errs.push(...nameIsDNSSubdomain(name, false).map((m) => invalid(fldPath.child('name'), name, m)));
  const key = str(source['kubeletConfigKey']);
  if (key === '') errs.push(required(fldPath.child('kubeletConfigKey'), 'kubeletConfigKey must be set'));
  else errs.push(...isConfigMapKey(key).map((m) => invalid(fldPath.child('kubeletConfigKey'), key, m)));
  return errs;
}

/** spec.configSource (deprecated, still validated): uid and resourceVersion belong in status only. */
function validateNodeConfigSource(source: Obj, fldPath: Path, inStatus: boolean): ErrorList {
  const errs: ErrorList = [];
  const cm = obj(source['configMap']);
  if (cm) {
    const cmPath = fldPath.child('configMap');
    if (inStatus) {
      if (str(cm['uid']) === '') errs.push(required(cmPath.child('uid'), 'uid must be set in status'));
      if (str(cm['resourceVersion']) === '') errs.push(required(cmPath.child('resourceVersion'), 'resourceVersion must be set in status'));
    } else {
      if (str(cm['uid']) !== '') errs.push(forbidden(cmPath.child('uid'), 'uid must not be set in spec'));
      if (str(cm['resourceVersion']) !== '') errs.push(forbidden(cmPath.child('resourceVersion'), 'resourceVersion must not be set in spec'));
    }
    errs.push(...validateConfigMapNodeConfigSource(cm, cmPath));
  } else {
    errs.push(invalid(fldPath, nodeConfigSourceStruct(source), 'exactly one reference subfield must be non-nil'));
  }
  return errs;
}

function validateNodeUpdate(node: KubeObject, old: KubeObject): ErrorList {
  const metaPath = Path.root('metadata');
  const errs = validateObjectMetaUpdate(node.metadata, old.metadata, metaPath);
  errs.push(...validateNodeSpecificAnnotations(node.metadata.annotations, metaPath.child('annotations')));
  errs.push(...validateNodeResources(node));
  const seen: Obj[] = [];
  objs(statusOf(node)['addresses']).forEach((a, i) => {
    if (seen.some((s) => semanticEqual(s, a))) errs.push(duplicate(Path.root('status', 'addresses').index(i), nodeAddressStruct(a)));
    seen.push(a);
  });
  const spec = specOf(node);
  const oldSpec = specOf(old);
  // The node IPAM controller may set pod CIDRs once; after that they are fixed.
  const oldCIDRs = podCIDRsOf(oldSpec);
  const newCIDRs = podCIDRsOf(spec);
  const cidrMsg = 'node updates may not change podCIDR except from "" to valid';
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errs.push(forbidden(Path.root('spec', 'podCIDRs'), cidrMsg));
    else oldCIDRs.forEach((c, i) => c !== newCIDRs[i] && errs.push(forbidden(Path.root('spec', 'podCIDRs'), cidrMsg)));
  }
  const oldProvider = str(oldSpec['providerID']);
  if (oldProvider.length > 0 && oldProvider !== str(spec['providerID'])) {
    errs.push(forbidden(Path.root('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'));
  }
  const configSource = obj(spec['configSource']);
  if (configSource) errs.push(...validateNodeConfigSource(configSource, Path.root('spec', 'configSource'), false));
  const config = obj(statusOf(node)['config']);
  if (config) {
    for (const which of ['assigned', 'active', 'lastKnownGood'] as const) {
      const s = obj(config[which]);
      if (s) errs.push(...validateNodeConfigSource(s, Path.root('status', 'config', which), true));
    }
  }
  const taints = objs(spec['taints']);
  if (taints.length > 0) errs.push(...validateNodeTaints(taints, metaPath.child('taints')));
  if (str(spec['externalID']) !== str(oldSpec['externalID'])) errs.push(forbidden(Path.root('spec', 'externalID'), 'may not be updated'));
  return errs;
}

registerValidator('', 'Node', { create: validateNode, update: validateNodeUpdate, updateStatus: validateNodeUpdate });

