// Registers the storage group's validators; one import per kind file.
import './storage-class';
import './csi-driver';
import './csi-node';
import './volume-attachment';
import './volume-attributes-class';
import './csi-storage-capacity';
