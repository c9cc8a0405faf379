export { startApiEndpoint, LOOPBACK, type ApiEndpoint, type ApiEndpointOptions } from './server';
export { KUBERNETES_VERSION } from './version';
export { kubeconfigText, type KubeconfigUser } from './kubeconfig';
