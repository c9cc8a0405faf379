// Registers the apps group's validators; one import per kind file.
export {};
