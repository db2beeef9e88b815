/**
 * Ports on 127.0.0.1 for tests of servers whose port is chosen by the planner (the local API):
 * one that is free right now, and one that another program holds until `release()`.
 */
import { connect, createServer, type Server } from 'node:net';

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}

function portOf(server: Server): number {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('not listening on a port');
  return address.port;
}

function closed(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A port nothing listens on at the moment (the system's pick, then let go). */
export async function freePort(): Promise<number> {
  const server = await listenOn(0);
  const port = portOf(server);
  await closed(server);
  return port;
}

/** A port another program holds (the system's pick, or this one), as the local API would find it. */
export async function occupiedPort(port = 0): Promise<{ port: number; release(): Promise<void> }> {
  const server = await listenOn(port);
  return { port: portOf(server), release: () => closed(server) };
}

/** How a connection to the port ends: `refused` when nothing listens there. */
export function connectTo(port: number): Promise<'accepted' | 'refused'> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNREFUSED' ? resolve('refused') : reject(error)));
  });
}
