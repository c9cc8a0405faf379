// Registers the apps group's validators; one import per kind file.
import './deployment';
import './replica-set';
import './daemon-set';
import './stateful-set';
import './controller-revision';
