// Registers the autoscaling group's defaulters; one import per kind file.
import './horizontal-pod-autoscaler';
