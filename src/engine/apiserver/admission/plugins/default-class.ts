/**
 * DefaultStorageClass and DefaultIngressClass: a claim or ingress that names no class gets the
 * one annotated as the default (the newest, if several are).
 */
import { isObject, type KubeObject } from '../../../api/types';
import type { AdmissionContext, AdmissionPlugin } from '../types';
import { own, setOwn } from '../../../api/own';

interface DefaultClassSpec {
  name: string;
  target: { group: string; resource: string };
  classes: { group: string; resource: string };
  annotation: string;
  field: string;
}

/** From the informer, as upstream's lister. */
function defaultClass(ctx: AdmissionContext, s: DefaultClassSpec): KubeObject | undefined {
  const defaults = ctx.reader.cached(s.classes).filter((c) => own(c.metadata.annotations, s.annotation) === 'true');
  defaults.sort((x, y) => {
    const tx = x.metadata.creationTimestamp ?? '';
    const ty = y.metadata.creationTimestamp ?? '';
    if (tx !== ty) return tx > ty ? -1 : 1;
    return (x.metadata.name ?? '') < (y.metadata.name ?? '') ? -1 : 1;
  });
  return defaults[0];
}

function defaultClassPlugin(s: DefaultClassSpec): AdmissionPlugin {
  return {
    name: s.name,
    handles: (a) => a.operation === 'CREATE' && a.group === s.target.group && a.resource === s.target.resource && a.subresource === '',
    async admit(a, ctx) {
      if (!a.object) return;
      const spec = isObject(a.object.spec) ? a.object.spec : {};
      // An explicit "" means "no class" and is kept.
      if (own(spec, s.field) !== undefined && own(spec, s.field) !== null) return;
      const cls = defaultClass(ctx, s);
      if (!cls?.metadata.name) return;
      setOwn(spec, s.field, cls.metadata.name);
      a.object.spec = spec;
      return `${s.field} ${cls.metadata.name}`;
    },
  };
}

export const defaultStorageClass = defaultClassPlugin({
  name: 'DefaultStorageClass',
  target: { group: '', resource: 'persistentvolumeclaims' },
  classes: { group: 'storage.k8s.io', resource: 'storageclasses' },
  annotation: 'storageclass.kubernetes.io/is-default-class',
  field: 'storageClassName',
});

export const defaultIngressClass = defaultClassPlugin({
  name: 'DefaultIngressClass',
  target: { group: 'networking.k8s.io', resource: 'ingresses' },
  classes: { group: 'networking.k8s.io', resource: 'ingressclasses' },
  annotation: 'ingressclass.kubernetes.io/is-default-class',
  field: 'ingressClassName',
});
