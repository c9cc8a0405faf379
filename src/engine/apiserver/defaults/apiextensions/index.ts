// Registers the apiextensions.k8s.io group's defaulters; one import per kind file.
import './custom-resource-definition';
