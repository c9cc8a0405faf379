// Registers the admissionregistration group's validators; one import per kind file.
import './webhook-configuration';
import './validating-admission-policy';
