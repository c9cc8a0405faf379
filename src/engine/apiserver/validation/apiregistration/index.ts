// Registers the apiregistration.k8s.io group's validators; one import per kind file.
import './api-service';
