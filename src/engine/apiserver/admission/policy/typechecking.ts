/**
 * A policy's type checking (validating/typechecking.go), for its status.typeChecking: every
 * validation expression and messageExpression compiled once per kind the matchConstraints name
 * (no wildcards, no subresources, at most 10 kinds, sorted by group, version, kind) with `object`
 * and `oldObject` typed by that kind's OpenAPI schema and `params` by the paramKind's. A
 * compile error becomes a warning `apps/v1, Kind=Deployment: ERROR: <input>:...` at the field.
 */
import { escapeProperty } from '../../customresources/cel-types';
import { schemaForKind, type SchemaNode } from '../../../api/openapi';
import type { ResourceRegistry } from '../../../api/registry';
import { admissionEnvironment } from '../../../cel/admission';
import { compile } from '../../../cel/compile';
import { formatIssues } from '../../../cel/issues';
import { obj, objs, str, strs } from '../../validation/core/json';
import { setOwn } from '../../../api/own';
import type { ExpressionWarning } from '../../../api/generated/admissionregistration-v1';

const MAX_TYPES_TO_CHECK = 10;
/** Deeper than any built-in kind nests: recursive definitions stop here, as dyn. */
const MAX_DEPTH = 24;

export type { ExpressionWarning };

interface Gvk {
  group: string;
  version: string;
  kind: string;
}

const gvkString = (g: Gvk): string => `${g.group}/${g.version}, Kind=${g.kind}`;

interface ObjectType {
  name: string;
  fields: Record<string, string>;
}

/** SchemaDeclType over the OpenAPI graph: object types per definition path, dyn past the depth limit. */
function declType(s: SchemaNode, name: string, types: ObjectType[], depth: number): string {
  if (depth > MAX_DEPTH || s.intOrString || s.preserveUnknownFields) return 'dyn';
  switch (s.type) {
    case 'array':
      return s.items ? `list<${declType(s.items, `${name}.@idx`, types, depth + 1)}>` : 'dyn';
    case 'object': {
      if (s.additionalProperties && !s.properties) {
        return s.additionalProperties === true ? 'map<string, dyn>' : `map<string, ${declType(s.additionalProperties, `${name}.@elem`, types, depth + 1)}>`;
      }
      if (!s.properties) return 'dyn';
      const fields: Record<string, string> = {};
      for (const [prop, sub] of Object.entries(s.properties).sort(([a], [b]) => (a < b ? -1 : 1))) {
        const field = escapeProperty(prop);
        if (field) setOwn(fields, field, declType(sub, `${name}.${field}`, types, depth + 1));
      }
      types.push({ name, fields });
      return name;
    }
    case 'string':
      if (s.format === 'byte') return 'bytes';
      if (s.format === 'date-time' || s.format === 'date') return 'google.protobuf.Timestamp';
      if (s.format === 'duration') return 'google.protobuf.Duration';
      return 'string';
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
  }
  return 'dyn';
}

function typesToCheck(spec: Record<string, unknown>, registry: ResourceRegistry): Gvk[] {
  const found = new Map<string, Gvk>();
  for (const rule of objs(obj(spec['matchConstraints'])?.['resourceRules'])) {
    const groups = strs(rule['apiGroups']);
    const versions = strs(rule['apiVersions']);
    if (groups.some((g) => g.includes('*')) || versions.some((v) => v.includes('*'))) continue;
    const resources = strs(rule['resources']).filter((r) => !/[*/]/.test(r));
    if (groups.length === 0 || versions.length === 0 || resources.length === 0) continue;
    for (const group of [...groups].sort()) {
      for (const version of [...versions].sort()) {
        for (const resource of [...resources].sort()) {
          const info = registry.byGroupResource(group, resource, version);
          if (!info || info.version !== version) continue;
          found.set(`${group}/${version}/${info.kind}`, { group, version, kind: info.kind });
          if (found.size === MAX_TYPES_TO_CHECK) return sorted(found);
        }
      }
    }
  }
  return sorted(found);
}

function sorted(m: Map<string, Gvk>): Gvk[] {
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return [...m.values()].sort((a, b) => cmp(a.group, b.group) || cmp(a.version, b.version) || cmp(a.kind, b.kind));
}

function paramKindGvk(spec: Record<string, unknown>): Gvk | undefined {
  const pk = obj(spec['paramKind']);
  if (!pk) return undefined;
  const apiVersion = str(pk['apiVersion']);
  const slash = apiVersion.indexOf('/');
  return { group: slash < 0 ? '' : apiVersion.slice(0, slash), version: slash < 0 ? apiVersion : apiVersion.slice(slash + 1), kind: str(pk['kind']) };
}

/** The warnings of a policy's expressions against the kinds it matches; [] when all check. */
export function typeCheckPolicy(policy: Record<string, unknown>, registry: ResourceRegistry): ExpressionWarning[] {
  const spec = obj(policy['spec']) ?? {};
  const gvks = typesToCheck(spec, registry);
  if (gvks.length === 0) return [];
  const pk = paramKindGvk(spec);
  const paramSchema = pk ? schemaForKind(pk.group, pk.version, pk.kind) : undefined;
  const checks: { gvk: Gvk; check: (expression: string) => string | undefined }[] = [];
  for (const gvk of gvks) {
    const schema = schemaForKind(gvk.group, gvk.version, gvk.kind);
    if (!schema) continue;
    const types: ObjectType[] = [];
    const objectType = declType(schema, gvk.kind, types, 0);
    const paramType = paramSchema ? declType(paramSchema, pk!.kind, types, 0) : pk ? 'dyn' : undefined;
    // variables, in order, each typed by its expression
    const variableTypes = new Map<string, string>();
    const envFor = () => typedEnvironment(types, objectType, paramType, variableTypes);
    for (const v of objs(spec['variables'])) {
      const r = compile(envFor(), str(v['expression']));
      variableTypes.set(str(v['name']), r.ok ? r.outputLibraryType : 'dyn');
    }
    const env = envFor();
    checks.push({
      gvk,
      check: (expression) => {
        const r = compile(env, expression);
        return r.ok ? undefined : r.issues.length > 0 ? formatIssues(expression, r.issues) : r.error;
      },
    });
  }
  const warnings: ExpressionWarning[] = [];
  const run = (fieldRef: string, expression: string): void => {
    const out = checks.map((c) => {
      const issues = c.check(expression);
      return issues === undefined ? '' : `${gvkString(c.gvk)}: ${issues}\n`;
    }).filter((s) => s !== '');
    if (out.length > 0) warnings.push({ fieldRef, warning: out.join('\n') });
  };
  objs(spec['validations']).forEach((v, i) => {
    run(`spec.validations[${i}].expression`, str(v['expression']));
    const me = str(v['messageExpression']);
    if (me !== '') run(`spec.validations[${i}].messageExpression`, me);
  });
  return warnings;
}

function typedEnvironment(types: ObjectType[], objectType: string, paramType: string | undefined, variables: ReadonlyMap<string, string>) {
  return admissionEnvironment({ hasParams: paramType !== undefined, hasAuthorizer: true }, undefined, {
    types,
    object: objectType,
    ...(paramType ? { params: paramType } : {}),
    variables,
  });
}
