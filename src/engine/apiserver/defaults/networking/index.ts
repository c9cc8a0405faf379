// Registers the networking.k8s.io group's defaulters; one import per kind file.
import './network-policy';
import './ingress-class';
