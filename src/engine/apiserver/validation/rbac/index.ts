// Registers the rbac group's validators; one import per kind file.
import './role';
import './role-binding';
