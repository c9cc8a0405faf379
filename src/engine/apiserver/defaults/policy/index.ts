// Registers the policy group's defaulters; one import per kind file.
export {};
