// Registers the core group's defaulters; one import per kind file.
export {};
