// Registers the apps group's defaulters; one import per kind file.
import './deployment';
import './replica-set';
import './daemon-set';
import './stateful-set';
