// Control-plane panel entry point (filled in by the extension issue).
export {};
