/**
 * Workshop mode's certificate (docs/decisions/workshop-mode.md): a self-signed X.509 certificate
 * made once per data folder, without the network, and kept beside its key (`workshop-key.pem`,
 * mode 0600, and `workshop-cert.pem`). Devices trust it by its SHA-256 fingerprint, which the
 * planner's Settings show, not by a certificate authority, so its names matter little.
 *
 * node:crypto makes the key pair (ECDSA P-256) and signs; the certificate around the signature
 * is written here as DER, the few ASN.1 types it needs and nothing more (RFC 5280 §4.1).
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nowMs } from '../../shared/clock.js';

export const workshopKeyFile = 'workshop-key.pem';
export const workshopCertificateFile = 'workshop-cert.pem';

/** Ten years: a certificate a device was told to trust should not lapse under a running workshop. */
const validYears = 10;

export interface WorkshopCertificate {
  key: string;
  cert: string;
  /** `AB:CD:…`, the SHA-256 of the certificate's DER, as browsers show it. */
  fingerprint: string;
}

function length(size: number): Buffer {
  if (size < 0x80) return Buffer.from([size]);
  const bytes: number[] = [];
  for (let rest = size; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

const sequence = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);

function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const digits = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) digits.unshift((value & 0x7f) | 0x80);
    bytes.push(...digits);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** A positive INTEGER: a leading zero byte where the top bit is set. */
function integer(value: Buffer): Buffer {
  return tlv(0x02, value[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

/** UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5). */
function time(at: Date): Buffer {
  const text = at.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  return at.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(text.slice(2), 'ascii')) : tlv(0x18, Buffer.from(text, 'ascii'));
}

function name(commonName: string): Buffer {
  return sequence(set(sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));

/** A new key pair and the certificate it signs for itself. */
export function makeWorkshopCertificate(commonName = 'Planner workshop'): WorkshopCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  // A day back, so a device whose clock runs a little behind still accepts it.
  const from = new Date(nowMs() - 24 * 3600_000);
  const until = new Date(from);
  until.setUTCFullYear(from.getUTCFullYear() + validYears);
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  const extensions = explicit(
    3,
    sequence(
      // basicConstraints: not a certificate authority (critical).
      sequence(oid('2.5.29.19'), tlv(0x01, Buffer.from([0xff])), tlv(0x04, sequence())),
      // subjectAltName: localhost and 127.0.0.1, for a browser on the planner's own computer.
      sequence(oid('2.5.29.17'), tlv(0x04, sequence(tlv(0x82, Buffer.from('localhost')), tlv(0x87, Buffer.from([127, 0, 0, 1]))))),
    ),
  );
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ecdsaWithSha256,
    name(commonName),
    sequence(time(from), time(until)),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, tlv(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const cert = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').trimEnd()}\n-----END CERTIFICATE-----\n`;
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { key, cert, fingerprint: new X509Certificate(cert).fingerprint256 };
}

/**
 * The data folder's certificate: read when both files are there and the key is the
 * certificate's, else made anew (which changes the fingerprint: every device pairs again).
 */
export function workshopCertificateIn(dataPath: string): WorkshopCertificate {
  const keyPath = join(dataPath, workshopKeyFile);
  const certPath = join(dataPath, workshopCertificateFile);
  if (existsSync(keyPath) && existsSync(certPath)) {
    try {
      const key = readFileSync(keyPath, 'utf8');
      const cert = readFileSync(certPath, 'utf8');
      const x509 = new X509Certificate(cert);
      if (x509.checkPrivateKey(createPrivateKey(key))) return { key, cert, fingerprint: x509.fingerprint256 };
      console.warn('The workshop certificate does not match its key; a new one is made, so devices must pair again.');
    } catch (error) {
      console.warn('The workshop certificate could not be read; a new one is made, so devices must pair again:', error);
    }
  }
  const made = makeWorkshopCertificate();
  // The key first, owner-only, each through a temporary name, so a crash leaves no half file.
  writeFileSync(`${keyPath}.tmp`, made.key, { mode: 0o600 });
  renameSync(`${keyPath}.tmp`, keyPath);
  writeFileSync(`${certPath}.tmp`, made.cert, { mode: 0o600 });
  renameSync(`${certPath}.tmp`, certPath);
  return made;
}
