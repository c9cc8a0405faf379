/**
 * Label selectors for the panel's filters, in kubectl -l's syntax with apimachinery's parser and
 * error texts (src/engine/api/labels.ts is their one home; the webview reaches it through here).
 */
export { labelSelectorMatches, parseSelector, Selector, type LabelSelector } from '../engine/api/labels';
