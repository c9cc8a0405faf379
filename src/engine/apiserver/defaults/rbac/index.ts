// Registers the rbac group's defaulters; one import per kind file.
export {};
