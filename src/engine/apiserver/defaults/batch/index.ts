// Registers the batch group's defaulters; one import per kind file.
export {};
