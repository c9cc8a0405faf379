// Registers the batch group's defaulters; one import per kind file.
import './job';
import './cron-job';
