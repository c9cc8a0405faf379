/**
 * The client runtime of every control-plane component: the in-process client, shared
 * informers, the workqueue, the control-loop base and event recorders.
 */
export * from './client';
export * from './clone';
export * from './errors';
export * from './resources';
export * from './informer';
export * from './workqueue';
export * from './controller';
export * from './events';
export { TokenBucket } from './flowcontrol/token-bucket';
