/**
 * A client as the public API's integrations are written (test/compat/): real HTTP to the API on
 * 127.0.0.1, the headers spelled as their authors spell them (`X-Api-Key`, `X-Api-Env`,
 * `Accept` and `Content-Type: application/json` on every request, bodiless ones too), paths
 * relative to the `/v1/` base URL, query parameters passed as a map the way `requests` and
 * `axios` take them.
 */
import type { TestApi } from './api.js';

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export interface PublicClient {
  get(path: string, params?: Record<string, string | number | string[]>): Promise<Answer>;
  post(path: string, body?: unknown, params?: Record<string, string>): Promise<Answer>;
  put(path: string, body?: unknown, params?: Record<string, string>): Promise<Answer>;
  delete(path: string): Promise<Answer>;
  /** Every record of a list, page by page (limit/offset), as the clients page. */
  all(path: string, params?: Record<string, string>, pageSize?: number): Promise<any[]>;
}

export function publicClient(api: TestApi): PublicClient {
  const base = `${api.baseUrl}/v1/`;
  const headers = {
    'X-Api-Key': api.headers['x-api-key']!,
    'X-Api-Env': api.headers['x-api-env']!,
    Accept: 'application/json',
    'Content-Type': 'application/json',
  };
  async function send(
    method: string,
    path: string,
    body?: unknown,
    params: Record<string, string | number | string[]> = {},
  ): Promise<Answer> {
    const url = new URL(path.replace(/^\//, ''), base);
    for (const [name, value] of Object.entries(params)) {
      for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(one));
    }
    const response = await fetch(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  }
  const client: PublicClient = {
    get: (path, params) => send('GET', path, undefined, params),
    post: (path, body, params) => send('POST', path, body, params),
    put: (path, body, params) => send('PUT', path, body, params),
    delete: (path) => send('DELETE', path),
    async all(path, params = {}, pageSize = 100) {
      const records: any[] = [];
      // Bounded: a list that never ends would stop the test, not hang it.
      for (let page = 0; page < 1000; page++) {
        const answer = await client.get(path, { ...params, limit: pageSize, offset: page * pageSize });
        if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        records.push(...answer.body.data);
        if (answer.body.data.length < pageSize || records.length >= answer.body.count) return records;
      }
      throw new Error(`GET ${path}: more than 1000 pages`);
    },
  };
  return client;
}

/** Asserts a status, naming the request's answer when it differs. */
export function expectStatus(answer: Answer, status: number, what = ''): any {
  if (answer.status !== status) throw new Error(`${what} expected ${status}, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}
