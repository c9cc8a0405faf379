// Registers the discovery group's defaulters; one import per kind file.
export {};
