// Registers the storage group's defaulters; one import per kind file.
export {};
