/**
 * The Content Security Policy every page of the app runs under, whether the desktop window
 * (electron/main) or the browser host (electron/host) serves it.
 *
 * Everything the renderer loads comes from its own origin. `style-src 'unsafe-inline'` is the
 * one concession: React sets `style` attributes (drag positions, column widths). No
 * `unsafe-eval`, no remote hosts: the API is reached over the bridge, never by fetch to
 * another origin.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
