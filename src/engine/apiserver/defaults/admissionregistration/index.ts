// Registers the admissionregistration group's defaulters; one import per kind file.
export {};
