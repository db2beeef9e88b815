/**
 * HTTP requests to a server on 127.0.0.1, sent from a chosen loopback address: every address of
 * 127.0.0.0/8 is this computer, so tests can be several clients and show that limits count per
 * client address. Connections are kept alive per address; `closeAgents()` ends them.
 */
import { Agent, request, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: any;
}

const agents = new Map<string, Agent>();

function agentFor(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ keepAlive: true, localAddress: address, maxSockets: 64 });
    agents.set(address, agent);
  }
  return agent;
}

/** The nth address (n from 0 to 62,499) of the block 127.`block`.x.y: one per simulated client. */
export function loopbackAddress(block: number, n: number): string {
  return `127.${block}.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;
}

export function requestFrom(
  address: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; keepAlive?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'GET',
        headers: {
          ...options.headers,
          ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
        },
        ...(options.keepAlive === false ? { localAddress: address, agent: false } : { agent: agentFor(address) }),
        timeout: 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const json = (res.headers['content-type'] ?? '').includes('json') && text;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json ? JSON.parse(text) : text });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in 30 s`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}
