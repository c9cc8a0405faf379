/**
 * The batch/v1 CronJob as the CronJob controller reads and writes it: the generated type, with
 * the spec every stored CronJob has (validation requires schedule and jobTemplate).
 */
import type { CronJob as ApiCronJob, CronJobSpec } from '../../api/generated/batch-v1';

export type { CronJobStatus } from '../../api/generated/batch-v1';

export type CronJob = ApiCronJob & { spec: CronJobSpec };

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
