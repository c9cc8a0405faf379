import { memoryBackend } from './fixtures';
import { storeSuite } from './suite';

describe('store (memory backend)', () => storeSuite(memoryBackend()));
