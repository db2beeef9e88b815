/**
 * Route metadata for the OpenAPI document. Every route declares a `doc` in its Fastify
 * config; the app collects them as routes are added, so the document lists exactly the
 * routes that exist.
 */
import type { ResourceModule } from './resource.js';
import type { RequestContext } from './resource.js';

export type Operation = 'list' | 'get' | 'create' | 'update' | 'delete';

export interface RouteDoc {
  summary: string;
  tag: string;
  /** For generic resource routes: which operation on which resource. */
  resource?: { module: ResourceModule; operation: Operation };
  /** Response status on success, with a description. */
  success?: { status: number; description: string };
  /** Extra query parameters: name → description. */
  query?: Record<string, string>;
  /** A JSON schema for the request body of a custom route. */
  body?: Record<string, unknown>;
}

export interface CollectedRoute {
  method: string;
  url: string;
  doc: RouteDoc;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    doc?: RouteDoc;
    /** Reachable without credentials (only the OAuth sign-in flow). */
    public?: boolean;
  }
  interface FastifyRequest {
    ctx: RequestContext;
  }
}
