// Registers the networking group's defaulters; one import per kind file.
export {};
