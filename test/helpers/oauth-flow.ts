/**
 * Driving the OAuth authorization-code flow the way a browser and an app do, over real HTTP:
 * open the sign-in page, post its form (with the CSRF cookie and token it gave), read the
 * redirect without following it, exchange the code at the token endpoint.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { call } from './instance.js';

export interface SignInPage {
  status: number;
  html: string;
  headers: Headers;
  location: string | null;
  /** The CSRF cookie as a browser would send it back (`name=value`). */
  cookie: string | null;
  /** The form's hidden fields (client_id, redirect_uri, state, csrf_token, …). */
  hidden: Record<string, string>;
}

function unescapeHtml(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
}

export async function openSignInPage(baseUrl: string, query: Record<string, string>): Promise<SignInPage> {
  const response = await fetch(`${baseUrl}/v1/oauth/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
  const html = await response.text();
  const hidden: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) hidden[unescapeHtml(m[1]!)] = unescapeHtml(m[2]!);
  const setCookie = response.headers.get('set-cookie');
  return {
    status: response.status,
    html,
    headers: response.headers,
    location: response.headers.get('location'),
    cookie: setCookie ? setCookie.split(';')[0]! : null,
    hidden,
  };
}

export interface FormAnswer {
  status: number;
  location: string | null;
  html: string;
  headers: Headers;
}

export async function postForm(
  baseUrl: string,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<FormAnswer> {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text(), headers: response.headers };
}

export function submitSignIn(
  baseUrl: string,
  page: SignInPage,
  fields: { environment: string; email: string; password: string; decision?: 'allow' | 'deny' },
  override: { cookie?: string | null; hidden?: Record<string, string> } = {},
): Promise<FormAnswer> {
  const cookie = override.cookie === undefined ? page.cookie : override.cookie;
  return postForm(
    baseUrl,
    '/v1/oauth/authorize',
    { ...page.hidden, ...override.hidden, decision: 'allow', ...fields },
    cookie ? { cookie } : {},
  );
}

export interface Credentials {
  environment: string;
  email: string;
  password: string;
}

/** The whole browser part: page, form, redirect. Returns the code from the redirect. */
export async function signInForCode(baseUrl: string, query: Record<string, string>, credentials: Credentials): Promise<string> {
  const page = await openSignInPage(baseUrl, { response_type: 'code', ...query });
  expect(page.status, page.html).toBe(200);
  const answer = await submitSignIn(baseUrl, page, credentials);
  expect(answer.status, answer.html).toBe(303);
  const location = new URL(answer.location!);
  expect(`${location.origin}${location.pathname}`).toBe(query.redirect_uri!.replace(/\?.*$/, ''));
  if (query.state) expect(location.searchParams.get('state')).toBe(query.state);
  return location.searchParams.get('code')!;
}

export async function tokenRequest(
  baseUrl: string,
  fields: Record<string, string>,
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${baseUrl}/v1/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * An active user with a password, made through the API as a planner would: invited with the
 * environment's key (`headers`), then accepted. So on either store engine the API serves from
 * (the `postgres` project's APIs read their users from PostgreSQL). Answers the user's id.
 */
export async function activeUserThroughApi(
  baseUrl: string,
  headers: Record<string, string>,
  user: { environment: string; email: string; role: string; password: string },
): Promise<string> {
  const invited = await call(baseUrl, 'POST', '/v1/user', headers, { email: user.email, role: user.role });
  if (invited.status !== 201) throw new Error(`inviting ${user.email} answered ${invited.status}: ${JSON.stringify(invited.body)}`);
  const found = await call(baseUrl, 'GET', `/v1/user?filter=email:eq:${encodeURIComponent(user.email.toLowerCase())}`, headers);
  const [made] = found.body.data as { id: string; invite_id: string }[];
  const accepted = await call(
    baseUrl,
    'POST',
    '/v1/user/accept',
    {},
    {
      environment: user.environment,
      invite_id: made!.invite_id,
      password: user.password,
    },
  );
  if (accepted.status !== 200) throw new Error(`accepting ${user.email} answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
  return made!.id;
}
