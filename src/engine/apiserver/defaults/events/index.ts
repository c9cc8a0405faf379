// Registers the events group's defaulters; one import per kind file.
export {};
