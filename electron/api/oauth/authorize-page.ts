/**
 * The sign-in and consent page of `GET /v1/oauth/authorize`: plain HTML, no script at all, one
 * stylesheet whose hash is the only style the Content-Security-Policy allows. Every value a
 * request brought is HTML-escaped.
 */
import { createHash } from 'node:crypto';

const style = `body{font:16px/1.4 system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:360px;margin:8vh auto;background:#fff;padding:24px 28px;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:20px;margin:0 0 12px}label{display:block;margin:12px 0 4px;font-size:14px}
input{width:100%;box-sizing:border-box;padding:8px;font:inherit;border:1px solid #aab;border-radius:4px}
.actions{display:flex;gap:8px;margin-top:20px}button{flex:1;padding:9px;font:inherit;border-radius:4px;border:1px solid #2656c9;background:#2656c9;color:#fff}
button[value=deny]{background:#fff;color:#2656c9}.error{color:#a4161a;background:#fdecea;padding:8px;border-radius:4px}`;

const styleHash = createHash('sha256').update(style).digest('base64');

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The CSP of every page: nothing but our own style; forms post here (and the browser may follow the redirect to `formTarget`). */
export function contentSecurityPolicy(formTarget?: string): string {
  const formAction = ["'self'", ...(formTarget ? [formTarget] : [])].join(' ');
  return `default-src 'none'; style-src 'sha256-${styleHash}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`;
}

/** What a CSP `form-action` source must name to let the browser follow a redirect to `uri`. */
export function formTargetOf(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${style}</style></head>
<body><main>${body}</main></body></html>`;
}

export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p class="error">${escapeHtml(message)}</p>`);
}

export interface SignInForm {
  clientName: string;
  /** Hidden fields carried to the POST (client_id, redirect_uri, state, PKCE, csrf_token). */
  hidden: Record<string, string>;
  environment: string;
  email: string;
  error?: string;
}

export function signInPage(form: SignInForm): string {
  const hidden = Object.entries(form.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return page(
    'Sign in to Planner',
    `<h1>Sign in to Planner</h1>
<p><strong>${escapeHtml(form.clientName)}</strong> wants to read and change your planning data on your behalf.</p>
${form.error ? `<p class="error">${escapeHtml(form.error)}</p>` : ''}
<form method="post" action="/v1/oauth/authorize">
${hidden}
<label for="environment">Environment</label><input id="environment" name="environment" required value="${escapeHtml(form.environment)}" autocomplete="organization">
<label for="email">Email</label><input id="email" name="email" type="email" required value="${escapeHtml(form.email)}" autocomplete="username">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="current-password">
<div class="actions"><button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny" formnovalidate>Deny</button></div>
</form>`,
  );
}
