/**
 * The API fuzz run (test/api/fuzz.test.ts runs a few hundred cases, test/bench/fuzz.ts as many
 * as asked): a real instance on 127.0.0.1, its own OpenAPI document, records made through the
 * API so path parameters can name existing ones, then generated requests
 * (api-fuzz-requests.ts) sent over real HTTP, route after route in turn. Each answer is judged:
 * no 5xx, the documented error body on every 4xx (docs/API.md "Errors"; the OAuth sign-in
 * page answers HTML by design), an answer at all. At the end the server must still read and
 * write. Webhooks made by the run point at 127.0.0.1, which the instance refuses to deliver
 * to: nothing leaves the machine.
 */
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { startTestApi, type TestApi } from './api.js';
import { requestFor, routesOf, type FuzzRequest, type FuzzRoute, type KnownValues } from './api-fuzz-requests.js';

export interface FuzzFinding {
  /** Its case number: `requestFor(route, known, headers)` sampled with seed + case. */
  case: number;
  route: string;
  method: string;
  url: string;
  body: string;
  status: number | null;
  problem: string;
  answer: string;
  /** The whole request, to send again. */
  request: FuzzRequest;
}

export interface FuzzReport {
  cases: number;
  routes: number;
  seed: number;
  durationMs: number;
  statuses: Record<string, number>;
  /** How often each refusal was given (status and the first description's opening words). */
  refusals: Record<string, number>;
  /** Answers with status 500 or above. */
  serverErrors: number;
  findings: FuzzFinding[];
  /** The instance read and wrote normally after the run. */
  stillAnswers: boolean;
}

export interface FuzzOptions {
  cases: number;
  seed: number;
  /** Make fresh records every this many cases (deletes use up the first ones). */
  refreshEvery?: number;
  /**
   * Who sends the generated requests (default the environment's API key, which may do
   * everything): e.g. a member's Bearer token, so the permission checks are fuzzed too. The
   * records to name are always made with the key.
   */
  caller?: (api: TestApi) => Promise<Record<string, string>>;
  /** Called after every thousand cases, with the cases done, the 500s and the findings so far. */
  progress?: (done: number, serverErrors: number, findings: number) => void;
}

interface Answer {
  status: number;
  type: string;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function send(baseUrl: string, request: Pick<FuzzRequest, 'method' | 'url' | 'headers' | 'body'>): Promise<Answer> {
  const url = new URL(baseUrl);
  // A body always goes with its length: Node sends a GET or DELETE body unframed otherwise,
  // and the server would read it as the next request on the connection.
  const headers =
    request.body === undefined ? request.headers : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
  return new Promise((done, fail) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method: request.method, path: request.url, headers, agent }, (res) => {
      const type = String(res.headers['content-type'] ?? '');
      if (type.startsWith('text/event-stream')) {
        // The live channel answers for as long as the client listens: its opening is the answer.
        res.destroy();
        done({ status: res.statusCode ?? 0, type, text: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        done({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', fail);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', fail);
    req.end(request.body);
  });
}

async function json(api: TestApi, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const answer = await send(api.baseUrl, {
    method,
    url: path,
    headers: { ...api.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    // not JSON
  }
  return { status: answer.status, body: parsed };
}

// ------------------------------------------------------------------------------ records to name

type Schema = Record<string, any>;

/** A value a sensible client would send for a required field, so the records get made. */
function sensible(name: string, schema: Schema, made: Map<string, string[]>, n: number): unknown {
  if (schema.enum) return schema.enum[0];
  const type = ([] as string[]).concat(schema.type ?? []).find((t) => t !== 'null') ?? 'string';
  if (type === 'string') {
    if (schema.format === 'uuid' || name.endsWith('_id')) return made.get(`/v1/${name.replace(/_id$/, '')}`)?.[0] ?? null;
    if (schema.format === 'date') return '2026-03-02';
    if (schema.format === 'date-time') return '2026-03-02T08:00:00Z';
    if (name === 'email') return `fuzz-${n}@example.com`;
    if (/url|uri|file/.test(name)) return 'http://127.0.0.1:9/hook';
    if (schema.pattern === '^\\d{2}:\\d{2}$') return '08:00';
    return `Fuzz ${name} ${n}`.slice(0, schema.maxLength ?? 100);
  }
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return false;
  if (type === 'array') return name === 'redirect_uris' ? ['http://127.0.0.1:9/cb'] : name === 'event_types' ? ['collection.created'] : [];
  if (type === 'object') return sensibleBody(schema, made, n);
  return null;
}

function sensibleBody(schema: Schema, made: Map<string, string[]>, n: number): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of Object.entries<Schema>(schema.properties ?? {})) {
    if (field.readOnly) continue;
    if ((schema.required ?? []).includes(name) || name.endsWith('_id') || name === 'name') body[name] = sensible(name, field, made, n);
  }
  return body;
}

/** Lists ids under a path, once per path (a fresh instance per round of record making). */
class Lister {
  private readonly listed = new Map<string, string[]>();
  constructor(private readonly api: TestApi) {}

  async ids(path: string): Promise<string[]> {
    if (!this.listed.has(path)) {
      const answer = await json(this.api, 'GET', `${path}?limit=5`);
      const data = Array.isArray(answer.body?.data) ? answer.body.data : [];
      this.listed.set(
        path,
        data.map((r: any) => r?.id).filter((id: unknown): id is string => typeof id === 'string'),
      );
    }
    return this.listed.get(path)!;
  }

  all(): string[] {
    return [...new Set([...this.listed.values()].flat())];
  }
}

const specialParams: Record<string, string[]> = {
  year: ['2026'],
  month: ['3'],
  day: ['2'],
  resource: ['project', 'card'],
  name: ['Weight'],
};

/**
 * Up to four assignments of a route's path parameters that name existing records: walks the
 * path, listing each parent (`/v1/collection/<id>/card` for a card's `{id}`); a `{board_id}`
 * the parent path does not list is any board.
 */
async function assignmentsOf(route: FuzzRoute, lister: Lister): Promise<Record<string, string>[]> {
  let partial: { prefix: string; values: Record<string, string> }[] = [{ prefix: '', values: {} }];
  for (const segment of route.template.split('/').slice(1)) {
    const param = /^\{(\w+)\}$/.exec(segment)?.[1];
    const next: typeof partial = [];
    for (const { prefix, values } of partial.slice(0, 3)) {
      if (!param) {
        next.push({ prefix: `${prefix}/${segment}`, values });
        continue;
      }
      let candidates = specialParams[param] ?? (await lister.ids(prefix));
      if (candidates.length === 0 && param.endsWith('_id')) candidates = await lister.ids(`/v1/${param.slice(0, -3)}`);
      for (const value of candidates.slice(0, 3)) next.push({ prefix: `${prefix}/${value}`, values: { ...values, [param]: value } });
    }
    partial = next;
  }
  return partial.slice(0, 4).map((p) => p.values);
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'x');

/**
 * Makes a few records of every resource the API creates, top-level and nested, in passes (a
 * card needs its collection, a time entry its card). Ids are kept under `/v1/<last segment>`,
 * which is where a `<name>_id` field looks for them.
 */
async function makeRecords(api: TestApi, routes: FuzzRoute[], round: number): Promise<void> {
  const made = new Map<string, string[]>();
  const creators = routes.filter((r) => r.method === 'POST' && r.body && !/oauth\/token|\/accept|\/upload|\/split/.test(r.template));
  for (let pass = 0; pass < 3; pass++) {
    const lister = new Lister(api);
    for (const route of creators) {
      const [values] = route.params.length > 0 ? await assignmentsOf(route, lister) : [{}];
      if (!values) continue;
      const answer = await json(api, 'POST', fill(route.template, values), sensibleBody(route.body!, made, round * 10 + pass));
      if (answer.status !== 201 || typeof answer.body?.id !== 'string') continue;
      const key = `/v1/${route.template.split('/').pop()}`;
      made.set(key, [...(made.get(key) ?? []), answer.body.id]);
    }
  }
}

async function findAssignments(api: TestApi, routes: FuzzRoute[]): Promise<KnownValues> {
  const lister = new Lister(api);
  const assignments = new Map<string, Record<string, string>[]>();
  for (const route of routes) {
    if (route.params.length > 0 && !assignments.has(route.template)) assignments.set(route.template, await assignmentsOf(route, lister));
  }
  return { assignments, ids: lister.all() };
}

// ------------------------------------------------------------------------------ judging

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What is wrong with an answer, or undefined. */
function judge(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 400 || request.method === 'HEAD') return undefined;
  // The sign-in page answers a person, in HTML, by design (docs/API.md "Sign-in page").
  if (request.route.endsWith(' /v1/oauth/authorize') && answer.type.startsWith('text/html')) return undefined;
  if (!answer.type.includes('application/json'))
    return `${answer.status} is ${answer.type || 'without a content type'}, not the JSON error body`;
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `${answer.status} body is not JSON`;
  }
  if (typeof body?.reference !== 'string' || !uuidPattern.test(body.reference)) return `${answer.status} body has no reference`;
  if (!Array.isArray(body.errors) || body.errors.length === 0) return `${answer.status} body has no errors`;
  for (const error of body.errors) {
    if (
      !Number.isInteger(error?.code) ||
      typeof error.message !== 'string' ||
      typeof error.description !== 'string' ||
      error.description === ''
    ) {
      return `${answer.status} error item is not {code, message, description}`;
    }
    if (error.field !== undefined && typeof error.field !== 'string') return `${answer.status} error field is not a string`;
  }
  if (/at .*\.[jt]s:\d+|SELECT |INSERT |sqlite/i.test(answer.text)) return `${answer.status} body shows code or SQL`;
  return undefined;
}

const preview = (value: string | Buffer | undefined) => (value === undefined ? '' : String(value).slice(0, 300));

// ------------------------------------------------------------------------------ the run

export async function runApiFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const api = await startTestApi({ environment: 'fuzz', key: 'fuzz-key-123' });
  try {
    const document = (await json(api, 'GET', '/v1/openapi.json')).body;
    const routes = routesOf(document);
    let known = { assignments: new Map(), ids: [] } as KnownValues;
    const refresh = async (round: number) => {
      await makeRecords(api, routes, round);
      known = await findAssignments(api, routes);
    };
    await refresh(0);
    const credentials = options.caller ? await options.caller(api) : api.headers;

    const statuses: Record<string, number> = {};
    const findings: FuzzFinding[] = [];
    const refusals: Record<string, number> = {};
    let serverErrors = 0;
    const refreshEvery = options.refreshEvery ?? 400;
    for (let i = 0; i < options.cases; i++) {
      if (i > 0 && i % 1000 === 0) options.progress?.(i, serverErrors, findings.length);
      if (i > 0 && i % refreshEvery === 0) await refresh(i / refreshEvery);
      const route = routes[i % routes.length]!;
      const [request] = fc.sample(requestFor(route, known, credentials), { numRuns: 1, seed: options.seed + i });
      const finding = (status: number | null, problem: string, answer = ''): FuzzFinding => ({
        case: i,
        route: request!.route,
        method: request!.method,
        url: request!.url.slice(0, 300),
        body: preview(request!.body),
        status,
        problem,
        answer: answer.slice(0, 300),
        request: request!,
      });
      let answer: Answer;
      try {
        answer = await send(api.baseUrl, request!);
      } catch (error) {
        findings.push(finding(null, `no answer: ${(error as Error).message}`));
        continue;
      }
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.status >= 500) serverErrors++;
      const problem = judge(request!, answer);
      if (problem) findings.push(finding(answer.status, problem, answer.text));
      else if (answer.status >= 400 && answer.type.includes('json') && request!.method !== 'HEAD') {
        const description = String(JSON.parse(answer.text).errors?.[0]?.description ?? '');
        const key = `${answer.status} ${description.replace(/[0-9a-f-]{36}|\d+/g, '#').slice(0, 50)}`;
        refusals[key] = (refusals[key] ?? 0) + 1;
      }
    }

    const read = await json(api, 'GET', '/v1/project?limit=1');
    const write = await json(api, 'POST', '/v1/project', { name: 'After the fuzz' });
    return {
      cases: options.cases,
      routes: routes.length,
      seed: options.seed,
      durationMs: Math.round(performance.now() - started),
      statuses,
      refusals,
      serverErrors,
      findings,
      stillAnswers: read.status === 200 && write.status === 201,
    };
  } finally {
    await api.close();
  }
}

/** The most frequent refusals, to see where the generated requests stop. */
export function topRefusals(report: FuzzReport, count = 12): string {
  return Object.entries(report.refusals)
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([refusal, times]) => `  ${String(times).padStart(6)}  ${refusal}`)
    .join('\n');
}

export function describeReport(report: FuzzReport): string {
  const statuses = Object.entries(report.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
  const lines = [
    `API fuzz: ${report.cases} cases over ${report.routes} routes (seed ${report.seed}) in ${(report.durationMs / 1000).toFixed(1)} s`,
    `  answers: ${statuses}`,
    `  500s: ${report.serverErrors}; answers outside the contract: ${report.findings.length}; still answers afterwards: ${report.stillAnswers ? 'yes' : 'NO'}`,
  ];
  for (const f of report.findings.slice(0, 20))
    lines.push(
      `  - case ${f.case}, ${f.problem}: ${f.method} ${f.url} [${f.route}] body=${JSON.stringify(f.body.slice(0, 120))} → ${f.answer.slice(0, 160)}`,
    );
  return lines.join('\n');
}
