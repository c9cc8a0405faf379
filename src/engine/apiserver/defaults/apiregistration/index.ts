// Registers the apiregistration.k8s.io group's defaulters; one import per kind file.
import './api-service';
