/** --authorization-mode=AlwaysAllow: for tests that exercise everything but authorization. */
import type { AuthorizerFactory } from './types';

export const alwaysAllow: AuthorizerFactory = () => ({
  authorize: () => ({ decision: 'Allow', reason: 'AlwaysAllow' }),
});
