/** The text of elkjs/lib/elk-worker.min.js, bundled by scripts/build.mjs (the worker starts from a blob: URL). */
declare module 'elkjs-worker-source' {
  const source: string;
  export default source;
}
