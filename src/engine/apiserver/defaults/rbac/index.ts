// Registers the rbac.authorization.k8s.io group's defaulters; Role and ClusterRole have none.
import './binding';
