/**
 * The panel's HTML shell: a strict Content-Security-Policy with a fresh nonce per load, only the
 * bundled script and stylesheet from dist/ (no remote content, no inline code), and the root
 * element the webview script fills in. The toolkit (FAST) reads the nonce from the csp-nonce
 * meta tag for the one style element it creates (its :focus-visible probe).
 */
import { randomBytes } from 'node:crypto';

export interface ShellParts {
  /** webview.cspSource: the origin local resources are served from. */
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly nonce: string;
}

/** 128 random bits, base64: unguessable per load, as CSP nonces must be. */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    // The object graph's layout worker (webview/ui/elk-worker.ts), started from a blob: URL
    // made of the bundled script (VS Code webviews start workers from blob: or data: only).
    'worker-src blob:',
  ].join('; ');
}

export function panelHtml(p: ShellParts): string {
  const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(p.cspSource, p.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta property="csp-nonce" content="${attr(p.nonce)}">
<link rel="stylesheet" href="${attr(p.styleUri)}" nonce="${attr(p.nonce)}">
<title>KubeSim Control Plane</title>
</head>
<body>
<div id="app" aria-busy="true">Loading the control plane…</div>
<script nonce="${attr(p.nonce)}" src="${attr(p.scriptUri)}"></script>
</body>
</html>`;
}
