// Registers the core group's defaulters; one import per kind file. ConfigMap, ServiceAccount
// and Event have none with a visible effect (ConfigMap's `data: {}` is omitted on the wire).
import './pod';
import './pod-template';
import './replication-controller';
import './service';
import './endpoints';
import './node';
import './namespace';
import './secret';
import './limit-range';
import './resource-quota';
import './persistent-volume';
import './persistent-volume-claim';
