// Registers the apiextensions group's defaulters; one import per kind file.
export {};
