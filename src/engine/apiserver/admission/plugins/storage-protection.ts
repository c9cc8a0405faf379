/**
 * StorageObjectInUseProtection: new claims and volumes carry the protection finalizers, so that
 * one in use by a pod (or bound to a claim) is not removed before it is released.
 */
import type { AdmissionPlugin } from '../types';
import { table } from '../../../api/own';

const FINALIZERS = table<string>({
  persistentvolumeclaims: 'kubernetes.io/pvc-protection',
  persistentvolumes: 'kubernetes.io/pv-protection',
});

export const storageObjectInUseProtection: AdmissionPlugin = {
  name: 'StorageObjectInUseProtection',
  handles: (a) => a.operation === 'CREATE' && a.group === '' && a.subresource === '' && Object.hasOwn(FINALIZERS, a.resource),
  admit(a) {
    const finalizer = FINALIZERS[a.resource];
    if (!finalizer || !a.object) return;
    const finalizers = a.object.metadata.finalizers ?? [];
    if (finalizers.includes(finalizer)) return;
    a.object.metadata.finalizers = [...finalizers, finalizer];
    return `added finalizer ${finalizer}`;
  },
};
