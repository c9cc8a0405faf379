// Benchmark runner: `npm run bench -- <suite> [--json]`.
export {};
const suite = process.argv[2];
console.error(`unknown benchmark suite: ${suite ?? '(none)'}`);
process.exit(2);
