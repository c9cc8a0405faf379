// Registers the coordination group's defaulters; one import per kind file.
export {};
