// Registers the core group's validators; one import per kind file.
import './pod';
import './persistentvolumeclaim';
