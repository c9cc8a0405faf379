// Registers the admissionregistration.k8s.io group's defaulters; one import per kind file.
import './webhook-configuration';
import './validating-admission-policy';
