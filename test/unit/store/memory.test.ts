import { memoryBackend } from './fixtures';
import { storeSuite } from './suite';

describe('store (memory backend)', () => storeSuite(memoryBackend()));
// The same semantics through Raft: writes replicated to three members, reads through ReadIndex.
describe('store (memory backend, 3 etcd members)', () => storeSuite(memoryBackend({ members: 3 })));
describe('store (memory backend, 3 etcd members, latency model)', () => storeSuite(memoryBackend({ members: 3, latency: 'model' })));
