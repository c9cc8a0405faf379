// Registers the apps group's defaulters; one import per kind file.
export {};
