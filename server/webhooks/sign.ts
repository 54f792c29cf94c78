// The Standard Webhooks headers of one attempt: the signature of id.timestamp.body by each secret in use.
import { Webhook } from 'standardwebhooks';

export interface Secrets {
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
}

export function signedHeaders(messageId: string, body: string, secrets: Secrets, at: number): Record<string, string> {
  const timestamp = new Date(at);
  const inUse = [secrets.secret];
  if (secrets.previous_secret && secrets.previous_until !== null && at < secrets.previous_until)
    inUse.push(secrets.previous_secret);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at / 1000)),
    'webhook-signature': inUse.map((s) => new Webhook(s).sign(messageId, timestamp, body)).join(' '),
  };
}
