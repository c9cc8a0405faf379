// Registers the networking group's validators; one import per kind file.
export {};
