// Registers the batch group's validators; one import per kind file.
import './job';
import './cron-job';
