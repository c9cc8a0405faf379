/**
 * VolumeAttachment rules (pkg/apis/storage/validation). The spec is written once by the
 * attach/detach controller; only the status changes afterwards.
 */
import { forbidden, invalid, Path, required, tooLong, type ErrorList } from '../../../api/field';
import { goJson } from '../../../api/gofmt';
import { inclusiveRangeError, nameIsDNSSubdomain } from '../../../api/names';
import type { KubeObject } from '../../../api/types';
import { entries, num, obj, str } from '../core/json';
import { goStruct } from '../apps/go-values';
import { validateObjectMeta } from '../meta';
import { registerValidator } from '../registry';
import { validateCSIDriverName } from './csi-driver';

const maxAttachedVolumeMetadataSize = 256 * 1024;
const maxVolumeErrorMessageSize = 1024;

function validateSource(source: Record<string, unknown>, fldPath: Path): ErrorList {
  const inline = obj(source['inlineVolumeSpec']);
  const pvName = source['persistentVolumeName'];
  const hasPV = typeof pvName === 'string';
  if (!inline && !hasPV) return [required(fldPath, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  if (inline && hasPV) return [forbidden(fldPath, 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  if (hasPV && pvName.length === 0) return [required(fldPath.child('persistentVolumeName'), 'must specify non empty persistentVolumeName')];
  return [];
}

function validateVolumeError(e: unknown, fldPath: Path): ErrorList {
  const err = obj(e);
  if (!err) return [];
  const errs: ErrorList = [];
  // Upstream reports the metadata size limit here, not the 1024-byte message limit it checks.
  if (Buffer.byteLength(str(err['message'])) > maxVolumeErrorMessageSize) errs.push(tooLong(fldPath.child('message'), maxAttachedVolumeMetadataSize));
  const code = num(err['errorCode']);
  if (code !== undefined && code < 0) errs.push(invalid(fldPath.child('errorCode'), code, inclusiveRangeError(0, 2147483647)));
  return errs;
}

function validateStatus(status: Record<string, unknown>, fldPath: Path): ErrorList {
  const size = entries(status['attachmentMetadata']).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(str(v)), 0);
  return [
    ...(size > maxAttachedVolumeMetadataSize ? [tooLong(fldPath.child('attachmentMetadata'), maxAttachedVolumeMetadataSize)] : []),
    ...validateVolumeError(status['attachError'], fldPath.child('attachError')),
    ...validateVolumeError(status['detachError'], fldPath.child('detachError')),
  ];
}

function validateVolumeAttachment(va: KubeObject): ErrorList {
  const spec = obj(va['spec']) ?? {};
  const attacher = str(spec['attacher']);
  const nodeName = str(spec['nodeName']);
  const errs = validateObjectMeta(va.metadata, false, nameIsDNSSubdomain, Path.root('metadata'));
  if (attacher.length === 0) errs.push(required(Path.root('spec', 'attacher'), ''));
  errs.push(...validateSource(obj(spec['source']) ?? {}, Path.root('spec', 'source')));
  for (const msg of nameIsDNSSubdomain(nodeName, false)) errs.push(invalid(Path.root('spec', 'nodeName'), nodeName, msg));
  errs.push(...validateStatus(obj(va['status']) ?? {}, Path.root('status')));
  return errs;
}

/** ValidateVolumeAttachmentV1: the stricter attacher and PV name checks of the v1 API. */
function validateVolumeAttachmentV1(va: KubeObject): ErrorList {
  const spec = obj(va['spec']) ?? {};
  const errs = validateCSIDriverName(str(spec['attacher']), Path.root('spec.attacher'));
  const pvName = obj(spec['source'])?.['persistentVolumeName'];
  if (typeof pvName === 'string') {
    for (const msg of nameIsDNSSubdomain(pvName, false)) errs.push(invalid(Path.root('spec.source.persistentVolumeName'), pvName, msg));
  }
  return errs;
}

/** The internal VolumeAttachmentSpec as the immutability error prints it. */
function specValue(spec: Record<string, unknown>): Map<string, unknown> {
  const source = obj(spec['source']) ?? {};
  return goStruct([
    ['Attacher', str(spec['attacher'])],
    [
      'Source',
      goStruct([
        ['PersistentVolumeName', source['persistentVolumeName'] ?? null],
        ['InlineVolumeSpec', source['inlineVolumeSpec'] ?? null],
      ]),
    ],
    ['NodeName', str(spec['nodeName'])],
  ]);
}

// On update the registry strategy runs the create rules and then the update rules, which run
// them again: upstream reports those errors twice (the Status message dedupes them).
function validateUpdate(va: KubeObject, old: KubeObject): ErrorList {
  const now = specValue(obj(va['spec']) ?? {});
  const before = specValue(obj(old['spec']) ?? {});
  const errs = [...validateVolumeAttachment(va), ...validateVolumeAttachment(va)];
  if (goJson(now) !== goJson(before)) errs.push(invalid(Path.root('spec'), now, 'field is immutable'));
  return errs;
}

registerValidator('storage.k8s.io', 'VolumeAttachment', {
  create: (va) => [...validateVolumeAttachment(va), ...validateVolumeAttachmentV1(va)],
  update: validateUpdate,
  updateStatus: validateUpdate,
});
