export { WorkQueue, type QueueOptions } from './queue';
export { DelayingQueue } from './delaying-queue';
export { RateLimitingQueue, type RateLimitingQueueOptions } from './rate-limiting-queue';
export {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
} from './rate-limiters';
export { runWorkers } from './workers';
