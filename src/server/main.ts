// Language server entry point (filled in by the extension issue).
export {};
