// Registers the policy group's validators; one import per kind file.
import './pod-disruption-budget';
import './eviction';
