// kubesim CLI entry point.
export {};
console.error('usage: kubesim <validate|apply|serve> ...');
process.exit(2);
