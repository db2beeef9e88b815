import { defineResource, jsonField, timestampField, type InputOf, type RecordOf } from '../fields.js';

const blockedSchemes = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:', 'filesystem:']);

export function isLoopbackHost(hostname: string): boolean {
  return hostname === '127.0.0.1' || hostname === '[::1]' || hostname === 'localhost';
}

/**
 * A redirect URI an OAuth client may register: https anywhere, http only on the loopback
 * address (native apps, RFC 8252 §7.3), or an app's own scheme (`com.example.app:/cb`,
 * RFC 8252 §7.1). Never a fragment.
 */
export function redirectUriProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URI';
  }
  if (url.hash || value.includes('#')) return 'may not contain a fragment';
  if (blockedSchemes.has(url.protocol)) return `may not use the ${url.protocol} scheme`;
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return 'must use https (http only for 127.0.0.1, [::1] or localhost)';
  if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.hostname) return 'must name a host';
  return null;
}

/**
 * An application that signs users in through OAuth (docs/API.md "OAuth"). Clients belong to
 * the instance; one created through the API by an environment's admin works for that
 * environment only (`environment_id`), one created with the server's CLI for every environment.
 */
export const oauthClientSpec = defineResource({
  name: 'oauth_client',
  title: 'OAuthClient',
  fields: {
    id: { type: 'string', readOnly: true, description: 'The client_id.' },
    name: { type: 'string', required: true, maxLength: 150, description: 'Shown to users on the sign-in page.' },
    redirect_uris: jsonField<string[]>()({
      type: 'json',
      shape: 'array',
      required: true,
      description: 'Where codes may be sent; compared exactly (the port of a loopback http URI is not compared).',
      check(value) {
        const list = value as unknown[];
        if (list.length === 0 || list.length > 20) return 'must hold 1 to 20 URIs';
        for (const item of list) {
          if (typeof item !== 'string' || item.length > 512) return 'items must be strings of at most 512 characters';
          const problem = redirectUriProblem(item);
          if (problem) return `${item} ${problem}`;
        }
        return null;
      },
    }),
    confidential: {
      type: 'boolean',
      default: true,
      description:
        'true: the client gets a secret and proves it at the token endpoint. false: a public client (desktop, mobile) that must use PKCE.',
    },
    client_secret: {
      type: 'string',
      virtual: true,
      readOnly: true,
      writeOnly: true,
      description: 'Generated for confidential clients; returned once, in the response to the POST that creates the client.',
    },
    environment_id: {
      type: 'uuid',
      nullable: true,
      readOnly: true,
      description: 'The environment it is limited to; null for instance-wide clients.',
    },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type OAuthClient = RecordOf<typeof oauthClientSpec>;
export type OAuthClientInput = InputOf<typeof oauthClientSpec>;
