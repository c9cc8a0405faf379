/**
 * cel-go's namespaced functions (`sets.contains`, `lists.range`, `strings.quote`, `ip.isCanonical`,
 * `format.dns1123Label`, `optional.of`): the CEL library resolves `ns.fn(...)` as a method of a
 * constant, so each namespace is a constant of a type of its own.
 */
import type { Environment } from '@marcbachmann/cel-js';

export function registerNamespace(env: Environment, name: string, typeName: string): void {
  // own-keys: an object literal's own key, read back to name the class.
  const Ns = { [typeName]: class {} }[typeName]!;
  env.registerType(typeName, Ns).registerConstant(name, typeName, new Ns());
}
