// Registers the rbac group's validators; one import per kind file.
export {};
