/**
 * The browser host's recovery page, shown at `/` while the data folder cannot be opened: what
 * is wrong and the three ways out as plain forms (electron/host/recovery.ts does the work).
 * Plain HTML like the OAuth sign-in page: no script, one stylesheet whose hash is the only
 * style the Content-Security-Policy allows, forms that post only here. Every value is
 * HTML-escaped. Each form carries the page key, which only the address Planner printed gives.
 * Its referrer policy is same-origin, not the host's no-referrer: under no-referrer a browser
 * sends `Origin: null` with a form, and the host refuses any Origin but its own.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { escapeHtml } from '../api/oauth/authorize-page.js';
import type { RecoveryFacts } from './recovery.js';

const style = `body{font:16px/1.45 system-ui,sans-serif;background:#f4f5f7;color:#1d2330;margin:0}
main{max-width:640px;margin:6vh auto;background:#fff;padding:24px 28px;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:22px;margin:0 0 12px}h2{font-size:17px;margin:22px 0 6px}code{background:#eef0f4;padding:1px 4px;border-radius:3px;word-break:break-all}
label{display:block;margin:10px 0 4px;font-size:14px}input[type=file]{display:block}input[type=text]{width:100%;box-sizing:border-box;padding:8px;font:inherit;border:1px solid #aab;border-radius:4px}
button{margin-top:10px;padding:8px 14px;font:inherit;border-radius:4px;border:1px solid #2656c9;background:#2656c9;color:#fff}
.error{color:#a4161a;background:#fdecea;padding:8px;border-radius:4px}.detail{color:#5a6275;font-size:14px}section{border-top:1px solid #e2e5ea;margin-top:18px}`;

const styleHash = createHash('sha256').update(style).digest('base64');

/** Nothing but the page's own style; forms post to this host only. */
export const recoveryPageCsp = `default-src 'none'; style-src 'sha256-${styleHash}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

function page(body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin"><title>Planner cannot open its data</title><style>${style}</style></head>
<body><main>${body}</main></body></html>`;
}

/** For a visit without the page key: no facts, only where to find the right address. */
export function keyNeededPage(): string {
  return page(`<h1>Planner cannot open its data</h1>
<p>Open the address Planner printed where it was started (it ends in <code>?key=…</code>): that page says what is wrong and how to go on.</p>`);
}

export function recoveryPage(facts: RecoveryFacts, key: string, refusal?: string): string {
  const hidden = `<input type="hidden" name="key" value="${escapeHtml(key)}">`;
  const kept = facts.keptAside.length
    ? `<p>Earlier data is kept in this data folder, in ${facts.keptAside.map((path) => `<code>${escapeHtml(basename(path))}</code>`).join(', ')}.</p>`
    : '';
  const takesOthers =
    facts.fileName === 'system.sqlite'
      ? ' The planning files that belong to it go with it, since without it nothing says which planning they hold.'
      : '';
  const locked = facts.problem === 'locked';
  return page(`<h1>Planner cannot open its data</h1>
<p>The file <code>${escapeHtml(facts.fileName)}</code> in the data folder <code>${escapeHtml(facts.dataPath)}</code> cannot be opened: ${escapeHtml(facts.words)}.</p>
<p class="detail">Details: ${escapeHtml(facts.detail)}</p>
${kept}
${refusal ? `<p class="error" role="alert">${escapeHtml(refusal)}</p>` : ''}
${
  locked
    ? `<section><h2>Try again</h2><p>Close the other program that uses this file, then try again.</p>
<form method="post" action="/recovery/retry">${hidden}<button type="submit">Try again</button></form></section>`
    : `<section><h2>Restore a backup</h2>
<p>A backup is a <code>.sqlite</code> file made with Back up… in the desktop app. It is checked before anything changes; then the files now in the data folder, this one too, are moved into a <code>before-restore-…</code> folder inside it, and the backup’s data takes their place.</p>
<form method="post" action="/recovery/restore" enctype="multipart/form-data">${hidden}
<label for="path">The backup file’s path on this computer</label><input type="text" id="path" name="path" placeholder="/home/you/Documents/Planner backup.sqlite">
<label for="file">or choose the file</label><input type="file" id="file" name="file" accept=".sqlite">
<button type="submit">Restore this backup</button></form></section>
<section><h2>Start fresh</h2>
<p><code>${escapeHtml(facts.fileName)}</code> is moved into a new <code>broken-…</code> folder inside the data folder (nothing is deleted), and Planner starts with empty planning.${takesOthers}</p>
<form method="post" action="/recovery/start-fresh">${hidden}<button type="submit">Start fresh</button></form></section>`
}
<section><h2>Open another data folder</h2>
<p>Planner starts on that folder instead; a folder that does not exist yet is made. This folder stays as it is.</p>
<form method="post" action="/recovery/open-folder">${hidden}
<label for="folder">The data folder’s full path</label><input type="text" id="folder" name="folder" required placeholder="/home/you/Planner">
<button type="submit">Open this folder</button></form></section>`);
}
