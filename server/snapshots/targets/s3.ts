// An S3-compatible bucket as a publish target (AWS S3, Cloudflare R2, GCS interoperability, MinIO), with the official SDK.
import { ListingsError } from '../../errors.ts';
import { describeS3Error, type S3Place } from './s3-errors.ts';
import { LEASE_MS, leaseLock, LOCK_PREFIX, type Lease } from './s3-lock.ts';
import type { Target } from './target.ts';

export interface S3TargetOptions {
  bucket: string;
  /** '' or a path without leading or trailing slashes. */
  prefix: string;
  endpoint?: string;
  region?: string;
  pathStyle?: boolean;
  /** Attempts per request, the first included; the SDK backs off exponentially with jitter between them. */
  maxAttempts?: number;
  /** Per attempt, from the request to its answer's headers, and the longest silence while its body streams. */
  requestTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export const REQUEST_TIMEOUT_MS = 30_000;
const MAX_ATTEMPTS = 5;
const CONNECT_TIMEOUT_MS = 10_000;

const quiet = () => undefined;
/** For the SDK's `logger`: its warnings repeat, on stderr, failures our own errors already name. */
export const SILENT_LOGGER = { trace: quiet, debug: quiet, info: quiet, warn: quiet, error: quiet };

/** Loaded on first use: the SDK is several MB that every other command would load for nothing. */
export async function s3Target(opts: S3TargetOptions): Promise<Target> {
  const env = opts.env ?? process.env;
  // The SDK warns on stderr at client creation that a later release will need Node 22; our users should see our lines only.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const requestTimeoutMs = opts.requestTimeoutMs ?? requestTimeoutOf(env.S3_REQUEST_TIMEOUT);
  const connectTimeoutMs = Math.min(CONNECT_TIMEOUT_MS, requestTimeoutMs);
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    region: opts.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    forcePathStyle: opts.pathStyle ?? false,
    followRegionRedirects: true,
    maxAttempts: opts.maxAttempts ?? MAX_ATTEMPTS,
    retryMode: 'standard',
    // CRC trailers by default trip some S3-compatible stores; SigV4 already covers the payload's SHA-256.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // requestTimeout alone only logs a warning (node-http-handler 4): throwOnRequestTimeout makes it a retried TimeoutError,
    // and socketTimeout covers an answer whose body stops coming after its headers (retried too: see get()).
    requestHandler: {
      connectionTimeout: connectTimeoutMs,
      requestTimeout: requestTimeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: requestTimeoutMs,
    },
    // Without a logger the SDK warns on stderr of a failed streaming upload; fail() already says it in our one line.
    logger: SILENT_LOGGER,
  });
  const base = opts.prefix ? `${opts.prefix}/` : '';
  const place: S3Place = {
    bucket: opts.bucket,
    prefix: opts.prefix,
    endpoint: opts.endpoint,
    timeouts: { connectMs: connectTimeoutMs, requestMs: requestTimeoutMs },
    maxAttempts: opts.maxAttempts ?? MAX_ATTEMPTS,
  };
  const label = `s3://${opts.bucket}${opts.prefix ? `/${opts.prefix}` : ''}`;
  const fail = (op: string, key: string, err: unknown): never => {
    throw new ListingsError('publish_failed', describeS3Error(err, op, `${label}/${key}`, place));
  };

  /** The publish lock while this target holds it: writes stop once its lease may have passed to another. */
  let lease: Lease | undefined;
  const target: Target = {
    label,
    recordKey: opts.endpoint ? `${label}?endpoint=${opts.endpoint}` : label,
    async get(key) {
      try {
        const command = new sdk.GetObjectCommand({ Bucket: opts.bucket, Key: base + key });
        let bytes: Uint8Array | undefined;
        // The body is read inside the SDK's retry loop, not after send(): a body that stalls after its headers then
        // times out (socketTimeout) and is retried with backoff as a stalled request is, instead of failing at once.
        command.middlewareStack.add(
          (next) => async (args) => {
            const result = await next(args);
            bytes = await result.output?.Body?.transformToByteArray();
            return result;
          },
          { step: 'deserialize', priority: 'high', name: 'readWholeBody' },
        );
        await client.send(command);
        return Buffer.from(bytes ?? []);
      } catch (err) {
        if ((err as { name?: string }).name === 'NoSuchKey') return undefined;
        return fail('GET', key, err);
      }
    },
    async put(key, bytes, meta) {
      if (lease?.lapsed() && !key.startsWith(LOCK_PREFIX))
        throw new ListingsError(
          'lock_lost',
          `${label}: the publish lock's lease ran out while renewing it failed, so another publisher may hold it now; nothing more is written under it`,
        );
      try {
        await client.send(
          new sdk.PutObjectCommand({
            Bucket: opts.bucket,
            Key: base + key,
            Body: bytes,
            ContentType: meta.contentType,
            CacheControl: meta.cacheControl,
          }),
        );
      } catch (err) {
        fail('PUT', key, err);
      }
    },
    lock: async (holder) => {
      const taken = await leaseLock(
        {
          label,
          put: (key, body) =>
            target.put(key, Buffer.from(body), { contentType: 'application/json', cacheControl: 'no-store' }),
          get: (key) => target.get(key),
          remove: async (key) => {
            try {
              await client.send(new sdk.DeleteObjectCommand({ Bucket: opts.bucket, Key: base + key }));
            } catch (err) {
              fail('DELETE', key, err);
            }
          },
          list: async (prefix) => {
            const keys: string[] = [];
            let token: string | undefined;
            try {
              do {
                const page = await client.send(
                  new sdk.ListObjectsV2Command({
                    Bucket: opts.bucket,
                    Prefix: base + prefix,
                    ContinuationToken: token,
                  }),
                );
                for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key.slice(base.length));
                token = page.IsTruncated ? page.NextContinuationToken : undefined;
              } while (token);
            } catch (err) {
              fail('LIST', prefix, err);
            }
            return keys;
          },
        },
        LEASE_MS,
        holder,
      );
      lease = taken;
      return async () => {
        lease = undefined;
        await taken.release();
      };
    },
    async close() {
      client.destroy();
    },
  };
  return target;
}

/** S3_REQUEST_TIMEOUT: seconds (a fraction allowed), unset or empty for the default. */
function requestTimeoutOf(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return REQUEST_TIMEOUT_MS;
  const seconds = Number(value);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value) || !(seconds > 0 && seconds <= 3600))
    throw new ListingsError(
      'invalid_config',
      `S3_REQUEST_TIMEOUT=${value}: expected seconds, more than 0 and at most 3600 (such as 30 or 2.5)`,
    );
  return Math.round(seconds * 1000);
}
