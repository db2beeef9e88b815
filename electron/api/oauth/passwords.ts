/**
 * User passwords, hashed with scrypt (memory-hard): `scrypt$N$r$p$<salt>$<digest>`, base64url.
 * The parameters travel with each digest so they can be raised later; N=2^14, r=8, p=5 is one
 * of OWASP's recommended scrypt settings (16 MiB per hash). Hashing runs on libuv's thread
 * pool, so a sign-in never blocks the event loop.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const params = { N: 2 ** 14, r: 8, p: 5 } as const;
export const minPasswordLength = 8;
export const maxPasswordLength = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions & { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, 32, { ...options, maxmem: 256 * options.N * options.r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'password must be a string';
  const length = [...password].length;
  if (length < minPasswordLength) return `password must be at least ${minPasswordLength} characters long`;
  if (length > maxPasswordLength) return `password may be at most ${maxPasswordLength} characters long`;
  return null;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

// Verifying against this when there is no user costs as much as a real check, so the time an
// answer takes does not tell whether an account exists.
let decoy: Promise<string> | undefined;

/** Whether the password matches the stored digest; with no digest, spends the same time and says no. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const digest = stored ?? (await (decoy ??= hashPassword(randomBytes(16).toString('hex'))));
  const [scheme, n, r, p, salt, expected] = digest.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  const wanted = Buffer.from(expected, 'base64url');
  return stored !== undefined && key.length === wanted.length && timingSafeEqual(key, wanted);
}
