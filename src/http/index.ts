export { startApiEndpoint, LOOPBACK, type ApiEndpoint, type ApiEndpointOptions } from './server';
export { KUBERNETES_VERSION } from './version';
