/**
 * The map's colours, read from VS Code's theme variables (--vscode-*) so that the canvas is
 * right in light, dark and high-contrast themes, and read again when the theme changes. Each
 * colour is kept as CSS text (for the 2D context and the legend) and as a packed RGBA pixel
 * (for the pixel buffer the squares are drawn into), blended onto the background when the
 * theme gives it with transparency.
 */
import { COLOR_SOURCES as SOURCES, type ColorName } from '../model/colors';

export { cssColor, TONE_COLORS, type ColorName } from '../model/colors';

export interface Palette {
  readonly css: Readonly<Record<ColorName, string>>;
  /** Packed little-endian RGBA (0xAABBGGRR), opaque. */
  readonly pixel: Readonly<Record<ColorName, number>>;
  readonly fontFamily: string;
  /** High contrast: borders everywhere, no faint fills. */
  readonly highContrast: boolean;
  /** A colour between two pixels (t = 0: a, t = 1: b). */
  mix(a: number, b: number, t: number): number;
  cssOf(pixel: number): string;
}

function rgba(pixel: number): [number, number, number] {
  return [pixel & 0xff, (pixel >>> 8) & 0xff, (pixel >>> 16) & 0xff];
}

function pack(r: number, g: number, b: number): number {
  return ((0xff << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

function mix(a: number, b: number, t: number): number {
  const [ar, ag, ab] = rgba(a);
  const [br, bg, bb] = rgba(b);
  return pack(Math.round(ar + (br - ar) * t), Math.round(ag + (bg - ag) * t), Math.round(ab + (bb - ab) * t));
}

function cssOf(pixel: number): string {
  const [r, g, b] = rgba(pixel);
  return `rgb(${r}, ${g}, ${b})`;
}

/** Reads the palette from the document's computed theme variables. */
export function readPalette(doc: Document = document): Palette {
  const style = getComputedStyle(doc.body);
  const probe = doc.createElement('canvas').getContext('2d', { willReadFrequently: true });
  const raw = {} as Record<ColorName, string>;
  for (const [name, [variable, fallback]] of Object.entries(SOURCES) as [ColorName, readonly [string, string]][]) {
    raw[name] = style.getPropertyValue(variable).trim() || fallback;
  }
  const resolve = (text: string, under: number | undefined): number => {
    if (!probe || !text) return under ?? pack(128, 128, 128);
    probe.clearRect(0, 0, 1, 1);
    probe.fillStyle = '#808080';
    probe.fillStyle = text;
    probe.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data as unknown as [number, number, number, number];
    const solid = pack(r, g, b);
    return under === undefined || a === 255 ? solid : mix(under, solid, a / 255);
  };
  const pixel = {} as Record<ColorName, number>;
  pixel.background = resolve(raw.background, undefined);
  for (const name of Object.keys(raw) as ColorName[]) if (name !== 'background') pixel[name] = resolve(raw[name], pixel.background);
  const highContrast = doc.body.classList.contains('vscode-high-contrast') || doc.body.classList.contains('vscode-high-contrast-light');
  if (highContrast && style.getPropertyValue('--vscode-contrastBorder').trim()) pixel.boxBorder = pixel.contrastBorder;
  const css = {} as Record<ColorName, string>;
  for (const name of Object.keys(pixel) as ColorName[]) css[name] = cssOf(pixel[name]);
  const fontFamily = style.getPropertyValue('--vscode-font-family').trim() || 'system-ui, sans-serif';
  return { css, pixel, fontFamily, highContrast, mix, cssOf };
}
