/**
 * GET /version: the version.Info of the kube-apiserver kubesim stands in for. There is no Go
 * build behind it, so the build fields carry Kubernetes' unset defaults and the runtime is Node's.
 */
export const KUBERNETES_VERSION = 'v1.35.0';

export const VERSION_INFO = {
  major: '1',
  minor: '35',
  emulationMajor: '1',
  emulationMinor: '35',
  minCompatibilityMajor: '1',
  minCompatibilityMinor: '34',
  gitVersion: KUBERNETES_VERSION,
  gitCommit: '',
  gitTreeState: '',
  buildDate: '1970-01-01T00:00:00Z',
  goVersion: `node ${process.version}`,
  compiler: 'gc',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};
