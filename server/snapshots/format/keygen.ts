// The snapshot signing key: Ed25519 key pairs, their key id (kid), their JWK form, and loading the private key to sign.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { open, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ListingsError } from '../../errors.ts';
import type { Jwk } from '../../../shared/listing.ts';
import { makeFolder, replaceFile } from '../files.ts';

export const PRIVATE_KEY_FILE = 'signing-key.pem';
export const PUBLIC_KEY_FILE = 'public-key.pem';
export const PUBLIC_JWK_FILE = 'public-key.jwk.json';

/** The raw 32-byte Ed25519 public key (RFC 8032), which is also the JWK's `x`. */
export function rawPublicKey(publicKey: KeyObject): Buffer {
  const { x } = publicKey.export({ format: 'jwk' });
  if (publicKey.asymmetricKeyType !== 'ed25519' || typeof x !== 'string')
    throw new TypeError('not an Ed25519 public key');
  return Buffer.from(x, 'base64url');
}

/**
 * kid = base64url (no padding) of the first 16 bytes of SHA-256 over the raw 32-byte public key: 22 characters,
 * the same for the same key on every machine, so anyone can recompute it from keys.json or the PEM.
 */
export function kidOf(publicKey: KeyObject): string {
  return createHash('sha256').update(rawPublicKey(publicKey)).digest().subarray(0, 16).toString('base64url');
}

export function jwkOf(publicKey: KeyObject): Jwk {
  return { kty: 'OKP', crv: 'Ed25519', x: rawPublicKey(publicKey).toString('base64url'), kid: kidOf(publicKey) };
}

/** The public key a JWK of keys.json holds, when its kid is that key's (kidOf); else undefined. */
export function publicKeyOfJwk(jwk: Jwk): KeyObject | undefined {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
    return kidOf(key) === jwk.kid ? key : undefined;
  } catch {
    return undefined;
  }
}

export function publicPemOf(publicKey: KeyObject): string {
  return publicKey.export({ format: 'pem', type: 'spki' }).toString();
}

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  kid: string;
}

export interface KeygenResult {
  kid: string;
  private_key: string;
  public_key_pem: string;
  public_key_jwk: string;
  jwk: Jwk;
}

/** Writes a new key pair into `dir`; refuses to replace an existing private key unless `force`. */
export async function generateSigningKey(dir: string, opts: { force?: boolean } = {}): Promise<KeygenResult> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = jwkOf(publicKey);
  const paths = {
    private_key: join(dir, PRIVATE_KEY_FILE),
    public_key_pem: join(dir, PUBLIC_KEY_FILE),
    public_key_jwk: join(dir, PUBLIC_JWK_FILE),
  };
  await makeFolder(dir, 0o700);
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  // Private key first: if it cannot be written, no orphan public key is left behind.
  if (opts.force) {
    const tmp = `${paths.private_key}.${process.pid}.tmp`;
    await writeNew(tmp, pem, 0o600);
    await rename(tmp, paths.private_key);
  } else {
    try {
      await writeNew(paths.private_key, pem, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      throw new ListingsError(
        'key_exists',
        `${paths.private_key} already exists: refusing to overwrite a signing key (use --force to replace it)`,
      );
    }
  }
  await replaceFile(paths.public_key_pem, publicPemOf(publicKey));
  await replaceFile(paths.public_key_jwk, `${JSON.stringify(jwk, null, 2)}\n`);
  return { kid: jwk.kid, ...paths, jwk };
}

/** O_EXCL create: two keygens can never both believe they wrote the key. chmod makes the mode exact whatever the umask. */
async function writeNew(path: string, text: string, mode: number): Promise<void> {
  const fh = await open(path, 'wx', mode);
  try {
    await fh.writeFile(text);
    await fh.chmod(mode);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Loads a PKCS#8 PEM Ed25519 private key; `warning` is set when the file is readable by others. */
export async function loadSigningKey(file: string): Promise<SigningKey & { warning?: string }> {
  let pem: string;
  let mode: number;
  try {
    pem = await readFile(file, 'utf8');
    mode = (await stat(file)).mode;
  } catch (err) {
    throw new ListingsError(
      'unreadable_file',
      `${file}: cannot read the signing key: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new ListingsError(
      'invalid_signing_key',
      `${file}: not a PEM private key (make one with "listings snapshot keygen")`,
    );
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new ListingsError(
      'invalid_signing_key',
      `${file}: a ${privateKey.asymmetricKeyType ?? 'unknown'} key; snapshots are signed with Ed25519 (make one with "listings snapshot keygen")`,
    );
  }
  const publicKey = createPublicKey(privateKey);
  const warning =
    process.platform !== 'win32' && (mode & 0o077) !== 0
      ? `${file} is readable by other users (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${file}`
      : undefined;
  return { privateKey, publicKey, kid: kidOf(publicKey), ...(warning ? { warning } : {}) };
}

/** For tests and tools that hold a key in memory. */
export function signingKeyOf(privateKey: KeyObject): SigningKey {
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, kid: kidOf(publicKey) };
}
