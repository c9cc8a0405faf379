/**
 * The theme colours the pictures are drawn in, by name, and the VS Code theme variable each one is
 * read from (with a fallback for a page without a VS Code theme). No DOM here: the models name
 * colours, webview/ui/palette.ts resolves them for the canvas, and SVG and HTML use cssColor.
 */
import type { PodTone } from './tones';

/** The theme variable of each colour, and a fallback when the page has no VS Code theme (the benchmark page). */
export const COLOR_SOURCES = {
  background: ['--vscode-editor-background', '#1e1e1e'],
  foreground: ['--vscode-foreground', '#cccccc'],
  muted: ['--vscode-descriptionForeground', '#9d9d9d'],
  box: ['--vscode-editorWidget-background', '#252526'],
  boxBorder: ['--vscode-widget-border', '#454545'],
  contrastBorder: ['--vscode-contrastBorder', ''],
  zone: ['--vscode-sideBar-background', '#181818'],
  focus: ['--vscode-focusBorder', '#007fd4'],
  track: ['--vscode-input-background', '#3c3c3c'],
  bar: ['--vscode-charts-blue', '#3794ff'],
  red: ['--vscode-charts-red', '#f14c4c'],
  orange: ['--vscode-charts-orange', '#d18616'],
  yellow: ['--vscode-charts-yellow', '#cca700'],
  green: ['--vscode-charts-green', '#89d185'],
  blue: ['--vscode-charts-blue', '#3794ff'],
  purple: ['--vscode-charts-purple', '#b180d7'],
} as const;

export type ColorName = keyof typeof COLOR_SOURCES;

/** A colour as a CSS value that follows the theme by itself (for SVG and HTML): var(--vscode-..., fallback). */
export function cssColor(name: ColorName): string {
  const [variable, fallback] = COLOR_SOURCES[name];
  return fallback ? `var(${variable}, ${fallback})` : `var(${variable})`;
}

/** Which theme colour each pod tone is drawn in. */
export const TONE_COLORS: Readonly<Record<PodTone, ColorName>> = {
  pending: 'muted',
  creating: 'blue',
  running: 'yellow',
  ready: 'green',
  terminating: 'purple',
  failed: 'red',
  crashloop: 'red',
  imagepull: 'orange',
  succeeded: 'muted',
  unknown: 'muted',
};

