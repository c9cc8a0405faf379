// Registers the scheduling group's defaulters; one import per kind file.
export {};
