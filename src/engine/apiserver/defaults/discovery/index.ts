// Registers the discovery.k8s.io group's defaulters; one import per kind file.
import './endpoint-slice';
