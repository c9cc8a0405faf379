/** Reads and writes of data objects whose keys may be any string (src/engine/api/own.ts), for the webview. */
export { own, setOwn } from '../engine/api/own';
