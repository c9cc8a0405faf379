// Registers the storage.k8s.io group's defaulters; one import per kind file.
import './storage-class';
import './csi-driver';
