// One line for each way object storage can refuse a publish: which bucket, which object, what to do about it.

export interface S3Place {
  bucket: string;
  prefix: string;
  endpoint?: string;
  /** The client's timeouts, to say which one a TimeoutError is. */
  timeouts?: { connectMs: number; requestMs: number };
  /** The client's attempts per request: fewer means its retry quota ran out. */
  maxAttempts?: number;
}

interface SdkError {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number };
  cause?: { code?: string };
}

const NETWORK = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);
const DENIED = new Set([
  'AccessDenied',
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'Forbidden',
  'InvalidToken',
  'ExpiredToken',
]);

/** `op` and `url` name the request (`PUT s3://b/p/wro-1/listings.json`); the rest says why it failed. */
export function describeS3Error(err: unknown, op: string, url: string, place: S3Place): string {
  const e = (err ?? {}) as SdkError;
  const status = e.$metadata?.httpStatusCode;
  const attempts = e.$metadata?.attempts;
  const where = place.endpoint ?? 'AWS S3';
  const code = e.code ?? e.cause?.code;
  if (e.name === 'CredentialsProviderError' || /Could not load credentials/i.test(e.message ?? '')) {
    return `no credentials for ${where}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)`;
  }
  if (e.name === 'NoSuchBucket') return `bucket "${place.bucket}" does not exist at ${where}`;
  if (DENIED.has(e.name ?? '') || status === 403) {
    return `access denied (${e.name ?? 'HTTP 403'}) for ${op} ${url}: check the credentials and that they may write to s3://${place.bucket}/${place.prefix}`;
  }
  if ((code && NETWORK.has(code)) || e.name === 'TimeoutError' || e.name === 'RequestTimeout') {
    const why = (e.name === 'TimeoutError' && timeoutText(e, place)) || code || e.name;
    return `cannot reach ${where} (${why}) for ${op} ${url}${attempts ? afterAttempts(attempts, place) : ''}`;
  }
  const why = status ? `HTTP ${status} ${e.name ?? ''}`.trim() : `${e.name ?? 'Error'}: ${e.message ?? String(err)}`;
  return `${op} ${url} failed: ${why}${attempts && attempts > 1 ? afterAttempts(attempts, place) : ''}`;
}

/**
 * The SDK's standard retries share one quota among a client's requests (each retry spends from it, each success
 * refills it): once many requests in flight have failed, the next failures are not retried as often as configured.
 */
function afterAttempts(attempts: number, place: S3Place): string {
  const quota = place.maxAttempts !== undefined && attempts < place.maxAttempts;
  return ` after ${attempts} attempts${quota ? ` (of ${place.maxAttempts}: the retries this publish's requests share ran out)` : ''}`;
}

/** The SDK's own TimeoutError: no connection, or no answer (or a stalled one), within the configured time. */
function timeoutText(e: SdkError, place: S3Place): string | undefined {
  if (!place.timeouts) return undefined;
  const seconds = (ms: number) => `${ms / 1000} s`;
  return /establish a connection/i.test(e.message ?? '')
    ? `no connection within ${seconds(place.timeouts.connectMs)}`
    : `no answer within ${seconds(place.timeouts.requestMs)}`;
}
