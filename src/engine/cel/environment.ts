/**
 * The CEL environment Kubernetes 1.35 gives every expression (k8s.io/apiserver/pkg/cel/
 * environment/base.go at 1.35): homogeneous aggregate literals, optional types, cross-type
 * numeric comparisons, and the libraries: cel-go's ext.Strings (v2), ext.Sets, ext.Lists (v3),
 * two-variable comprehensions; Kubernetes' lists, regex, url, authz, quantity, ip, cidr, format
 * and semver. Built once; each use (admission policies, CRD rules) extends a clone with its
 * variables.
 */
import { Environment } from '@marcbachmann/cel-js';
import { registerAuthz } from './library/authz';
import { registerComprehensions } from './library/comprehensions';
import { registerFormat } from './library/format';
import { registerLists } from './library/lists';
import { registerNamespace } from './library/namespaces';
import { registerNetwork } from './library/network';
import { registerQuantity } from './library/quantity';
import { registerSemver } from './library/semver';
import { registerStrings } from './library/strings';
import { registerURLs } from './library/urls';

let base: Environment | undefined;

function build(): Environment {
  const env = new Environment({
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: true,
    unlistedVariablesAreDyn: false,
    // cel-go's parser limits: recursion 250 (the syntax check reports it first); the library's
    // own node and size limits are set above anything an expression within kube's 1.5 MiB
    // request limit can reach so that they never answer first.
    limits: { maxAstNodes: 1_000_000, maxDepth: 1_000, maxListElements: 1_000_000, maxMapEntries: 1_000_000, maxCallArguments: 10_000 },
  });
  registerNamespace(env, 'sets', 'SetsNamespace');
  registerNamespace(env, 'lists', 'ListsNamespace');
  registerNamespace(env, 'strings', 'StringsNamespace');
  registerNamespace(env, 'ip', 'IPNamespace');
  registerLists(env);
  registerStrings(env);
  registerURLs(env);
  registerQuantity(env);
  registerNetwork(env);
  registerFormat(env);
  registerSemver(env);
  registerAuthz(env);
  registerComprehensions(env);
  return env;
}

/** The base environment; callers clone it to declare their variables. */
export function baseEnvironment(): Environment {
  return (base ??= build());
}

export interface Declarations {
  /** Variable name to CEL type (`dyn`, `map<string, dyn>`, a registered object type). */
  readonly variables: Readonly<Record<string, string>>;
  /** Object types to register first: name to field types. */
  readonly types?: ReadonlyArray<{ name: string; fields: Record<string, string>; ctor?: new () => object }>;
}

export function extendEnvironment(decls: Declarations): Environment {
  const env = baseEnvironment().clone();
  for (const t of decls.types ?? []) env.registerType(t.name, t.ctor ? { ctor: t.ctor, fields: t.fields } : { fields: t.fields });
  for (const [name, type] of Object.entries(decls.variables)) env.registerVariable(name, type);
  return env;
}
