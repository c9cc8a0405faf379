// Registers the scheduling.k8s.io group's defaulters; one import per kind file.
import './priority-class';
