// Registers the admissionregistration group's validators; one import per kind file.
export {};
