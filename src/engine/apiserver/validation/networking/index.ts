// Registers the networking group's validators; one import per kind file.
import './network-policy';
import './ingress';
import './ingress-class';
import './ip-address';
import './service-cidr';
