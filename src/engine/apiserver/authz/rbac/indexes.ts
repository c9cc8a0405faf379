/**
 * Indexes over RBAC objects, built once per change of the underlying list: bindings by subject
 * key (so a decision touches only the bindings that name the user or one of its groups) and roles
 * by name. The watch cache hands out frozen, shared objects, so "the list changed" is an identity
 * comparison of its elements.
 */
import type { KubeObject } from '../../../api/types';
import type { UserInfo } from '../../authn/user';
import { subjectKey, userKeys } from './subjects';
import { roleRefOf, rulesOf, subjectsOf, type PolicyRule, type RoleRef, type Subject } from './types';

export interface BindingEntry {
  readonly name: string;
  readonly namespace: string;
  readonly roleRef: RoleRef;
  readonly subjects: readonly Subject[];
  /** Position in the list the index was built from: the order bindings are visited in. */
  readonly order: number;
}

/** A binding that applies to a user, with the first of its subjects that does. */
export interface AppliedBinding {
  readonly binding: BindingEntry;
  readonly subject: Subject;
}

export class BindingIndex {
  private readonly bySubject = new Map<string, { entry: BindingEntry; subjectIndex: number }[]>();

  constructor(bindings: readonly KubeObject[]) {
    bindings.forEach((obj, order) => {
      const namespace = obj.metadata.namespace ?? '';
      const entry: BindingEntry = { name: obj.metadata.name ?? '', namespace, roleRef: roleRefOf(obj), subjects: subjectsOf(obj), order };
      entry.subjects.forEach((s, subjectIndex) => {
        const key = subjectKey(s, namespace);
        if (key === undefined) return;
        const list = this.bySubject.get(key);
        if (list) list.push({ entry, subjectIndex });
        else this.bySubject.set(key, [{ entry, subjectIndex }]);
      });
    });
  }

  /** The bindings naming the user, in list order, each with the first subject that applies. */
  appliesTo(user: UserInfo): AppliedBinding[] {
    const first = new Map<BindingEntry, number>();
    for (const key of userKeys(user)) {
      for (const { entry, subjectIndex } of this.bySubject.get(key) ?? []) {
        const seen = first.get(entry);
        if (seen === undefined || subjectIndex < seen) first.set(entry, subjectIndex);
      }
    }
    return [...first]
      .sort(([a], [b]) => a.order - b.order)
      .map(([binding, i]) => ({ binding, subject: binding.subjects[i]! }));
  }
}

export class RoleIndex {
  private readonly byName = new Map<string, PolicyRule[]>();

  constructor(roles: readonly KubeObject[]) {
    for (const r of roles) this.byName.set(r.metadata.name ?? '', rulesOf(r));
  }

  rules(name: string): PolicyRule[] | undefined {
    return this.byName.get(name);
  }
}

/** A value derived from a list, rebuilt only when the list's elements change. */
export class Derived<T> {
  private source: readonly KubeObject[] | undefined;
  private value: T | undefined;

  constructor(private readonly build: (objs: readonly KubeObject[]) => T) {}

  of(objs: readonly KubeObject[]): T {
    if (this.value === undefined || !sameElements(this.source!, objs)) {
      this.source = objs;
      this.value = this.build(objs);
    }
    return this.value;
  }
}

function sameElements(a: readonly KubeObject[], b: readonly KubeObject[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Derived values per namespace; a namespace whose list is empty is dropped, keeping memory bounded. */
export class DerivedByNamespace<T> {
  private readonly byNamespace = new Map<string, Derived<T>>();

  constructor(private readonly build: (objs: readonly KubeObject[]) => T) {}

  of(namespace: string, objs: readonly KubeObject[]): T {
    if (objs.length === 0) {
      this.byNamespace.delete(namespace);
      return this.build(objs);
    }
    let d = this.byNamespace.get(namespace);
    if (!d) this.byNamespace.set(namespace, (d = new Derived(this.build)));
    return d.of(objs);
  }
}
