// Registers the autoscaling group's validators; one import per kind file.
import './horizontal-pod-autoscaler';
