/** The Node authorizer: `createNodeAuthorizer(reader)`, placed before RBAC in the chain. */
export { NodeAuthorizer, createNodeAuthorizer } from './authorizer';
export { nodeIdentity } from './identity';
