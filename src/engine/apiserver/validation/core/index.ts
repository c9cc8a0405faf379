// Registers the core group's validators; one import per kind file.
export {};
