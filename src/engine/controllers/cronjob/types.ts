/** The batch/v1 CronJob as the CronJob controller reads and writes it. */
import type { KubeObject } from '../../api/types';
import type { ObjectReference } from '../../client/events';

export interface CronJob extends KubeObject {
  spec: {
    schedule: string;
    timeZone?: string;
    startingDeadlineSeconds?: number;
    concurrencyPolicy?: string;
    suspend?: boolean;
    jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
  };
  status?: {
    active?: ObjectReference[];
    lastScheduleTime?: string;
    lastSuccessfulTime?: string;
  };
}

export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
