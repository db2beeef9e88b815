/**
 * Serving the built renderer from `app://planner/…`. A privileged standard scheme gives the
 * page a real origin, so CSP `'self'`, relative URLs and fetch behave as on the web, without
 * file:// (where a page may read any file the user can). Only files inside the renderer
 * folder are ever served.
 */
import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { protocol, type CustomScheme } from 'electron';
import { contentSecurityPolicy } from './security.js';

export const appScheme = 'app';
export const appHost = 'planner';
export const appEntryUrl = `${appScheme}://${appHost}/index.html`;

/**
 * `corsEnabled` stays off on purpose: the page loads its modules from its own origin, and
 * without it no other origin can read anything from the scheme.
 */
export const appSchemePrivileges: CustomScheme = {
  scheme: appScheme,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
};

/**
 * Whether a URL belongs to the app. Compared field by field rather than by `origin`, because
 * Node (unlike Chromium) gives unknown schemes the opaque origin "null".
 */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${appScheme}:` && parsed.host === appHost && !parsed.username && !parsed.password;
}

/** Chromium only accepts scheme privileges before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([appSchemePrivileges]);
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle(appScheme, createRendererHandler(rendererDir));
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Exported so tests can call it with plain `Request`s, without Electron. */
export function createRendererHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const root = resolve(rendererDir);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405);
    const url = new URL(request.url);
    if (url.host !== appHost) return refuse(404);
    const file = fileInside(root, url.pathname === '/' ? '/index.html' : url.pathname);
    if (!file) return refuse(404);
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch {
      // Missing files, folders and unreadable names all look the same from outside.
      return refuse(404);
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(data), {
      status: 200,
      headers: {
        ...securityHeaders,
        'content-type': contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream',
      },
    });
  };
}

const securityHeaders = {
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
};

function refuse(status: 404 | 405): Response {
  return new Response(null, { status, headers: securityHeaders });
}

/**
 * URL parsing already folds `/../` away, but percent-encoded separators (`..%2f`) survive it
 * and only turn into a climb once decoded, so the decoded path is checked against the root.
 */
function fileInside(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const file = resolve(root, `.${decoded}`);
  const path = relative(root, file);
  if (path === '' || path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path)) return undefined;
  return file;
}
