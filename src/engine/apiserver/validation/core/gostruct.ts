/**
 * Some upstream errors carry an internal Go struct as the bad value. Internal types have no JSON
 * tags, so the message shows encoding/json of the struct with Go field names in declaration
 * order, nil pointers as null. These renderers rebuild that from the v1 JSON.
 */
import { isSet, obj, str, type Obj } from './json';

type Fields = [string, unknown][];

const struct = (fields: Fields): Map<string, unknown> => new Map(fields);
const ptr = (v: unknown): unknown => (isSet(v) ? v : null);
const ptrStruct = (v: unknown, render: (o: Obj) => Map<string, unknown>): unknown => {
  const o = obj(v);
  return o ? render(o) : null;
};
const list = (v: unknown): unknown => (Array.isArray(v) ? v : null);

const profile = (o: Obj): Map<string, unknown> => struct([['Type', str(o['type'])], ['LocalhostProfile', ptr(o['localhostProfile'])]]);

export const seccompProfileStruct = profile;

export function securityContextStruct(sc: Obj): Map<string, unknown> {
  return struct([
    ['Capabilities', ptrStruct(sc['capabilities'], (c) => struct([['Add', list(c['add'])], ['Drop', list(c['drop'])]]))],
    ['Privileged', ptr(sc['privileged'])],
    [
      'SELinuxOptions',
      ptrStruct(sc['seLinuxOptions'], (s) => struct([['User', str(s['user'])], ['Role', str(s['role'])], ['Type', str(s['type'])], ['Level', str(s['level'])]])),
    ],
    [
      'WindowsOptions',
      ptrStruct(sc['windowsOptions'], (w) =>
        struct([
          ['GMSACredentialSpecName', ptr(w['gmsaCredentialSpecName'])],
          ['GMSACredentialSpec', ptr(w['gmsaCredentialSpec'])],
          ['RunAsUserName', ptr(w['runAsUserName'])],
          ['HostProcess', ptr(w['hostProcess'])],
        ]),
      ),
    ],
    ['RunAsUser', ptr(sc['runAsUser'])],
    ['RunAsGroup', ptr(sc['runAsGroup'])],
    ['RunAsNonRoot', ptr(sc['runAsNonRoot'])],
    ['ReadOnlyRootFilesystem', ptr(sc['readOnlyRootFilesystem'])],
    ['AllowPrivilegeEscalation', ptr(sc['allowPrivilegeEscalation'])],
    ['ProcMount', ptr(sc['procMount'])],
    ['SeccompProfile', ptrStruct(sc['seccompProfile'], profile)],
    ['AppArmorProfile', ptrStruct(sc['appArmorProfile'], profile)],
  ]);
}

export function taintStruct(t: Obj): Map<string, unknown> {
  return struct([['Key', str(t['key'])], ['Value', str(t['value'])], ['Effect', str(t['effect'])], ['TimeAdded', ptr(t['timeAdded'])]]);
}

export function nodeAddressStruct(a: Obj): Map<string, unknown> {
  return struct([['Type', str(a['type'])], ['Address', str(a['address'])]]);
}

export function ipStruct(ip: Obj): Map<string, unknown> {
  return struct([['IP', str(ip['ip'])]]);
}

/** The (protocol, port) key a Service's duplicate-port error shows. */
export function servicePortKeyStruct(protocol: string, port: number): Map<string, unknown> {
  return struct([['Name', ''], ['Protocol', protocol], ['AppProtocol', null], ['Port', port], ['TargetPort', 0], ['NodePort', 0]]);
}

export function podResourceClaimStruct(c: Obj): Map<string, unknown> {
  return struct([['Name', str(c['name'])], ['ResourceClaimName', ptr(c['resourceClaimName'])], ['ResourceClaimTemplateName', ptr(c['resourceClaimTemplateName'])]]);
}

export function nodeConfigSourceStruct(s: Obj): Map<string, unknown> {
  return struct([
    [
      'ConfigMap',
      ptrStruct(s['configMap'], (c) =>
        struct([
          ['Namespace', str(c['namespace'])],
          ['Name', str(c['name'])],
          ['UID', str(c['uid'])],
          ['ResourceVersion', str(c['resourceVersion'])],
          ['KubeletConfigKey', str(c['kubeletConfigKey'])],
        ]),
      ),
    ],
  ]);
}

