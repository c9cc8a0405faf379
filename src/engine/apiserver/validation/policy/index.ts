// Registers the policy group's validators; one import per kind file.
export {};
