// Registers the storage group's validators; one import per kind file.
export {};
