// A webhook receiver on loopback for tests: HTTPS with a self-signed certificate made by openssl for 127.0.0.1, each
// delivery verified with the standardwebhooks library, and its answer's status chosen by the test.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { tempDir } from './fixture.ts';

export interface Received {
  /** The request's path and query: which endpoint it was sent to. */
  path: string;
  id: string;
  body: string;
  signature: string;
  /** The parsed event when a signature verified with one of the receiver's secrets; undefined when none did. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  verified: { type: string; timestamp: string; data: any } | undefined;
}

/** A self-signed certificate for 127.0.0.1 and localhost, in `dir`; the sender trusts it as its CA. */
export function selfSignedCert(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, 'receiver-key.pem');
  const certFile = join(dir, 'receiver-cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/** Sends the status line and headers at once, then a byte of body every 50 ms until the sender hangs up. */
function trickle(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.flushHeaders();
  const timer = setInterval(() => res.write('.'), 50);
  res.on('close', () => clearInterval(timer));
}

export async function startReceiver(dir: string) {
  const tls = selfSignedCert(dir);
  const received: Received[] = [];
  /**
   * `endless`: the answer's body never ends (the sender must stop reading on its own); `trickle`: after its status line
   * and headers, the body comes a byte at a time and never ends.
   */
  const state = { secrets: [] as string[], status: 204, delayMs: 0, endless: false, trickle: false };
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = req.headers as Record<string, string>;
      let verified: Received['verified'];
      for (const secret of state.secrets) {
        try {
          verified = new Webhook(secret).verify(body, headers) as Received['verified'];
          break;
        } catch {
          // Another of the secrets may sign it.
        }
      }
      received.push({
        path: req.url!,
        id: headers['webhook-id']!,
        body,
        signature: headers['webhook-signature']!,
        verified,
      });
      setTimeout(() => {
        if (state.trickle) return trickle(res, state.status);
        if (!state.endless) return res.writeHead(state.status).end();
        res.writeHead(200);
        const more = () => res.write(Buffer.alloc(16 * 1024, 'x'), () => setImmediate(more));
        res.on('close', () => res.destroy());
        more();
      }, state.delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hooks`,
    ca: tls.cert,
    caFile: tls.certFile,
    received,
    state,
    /** Cuts every open connection: senders waiting for an answer fail at once. */
    hangUp: () => server.closeAllConnections(),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A receiver and a temporary folder for the tests of one file, started before them and removed after. */
export function useReceiver(): { receiver: Receiver; dir: string } {
  const state = {} as { receiver: Receiver; dir: string };
  let temp: ReturnType<typeof tempDir> | undefined;
  beforeAll(async () => {
    temp = tempDir();
    state.dir = temp.dir;
    state.receiver = await startReceiver(temp.dir);
  });
  afterAll(async () => {
    await state.receiver?.close();
    temp?.cleanup();
  });
  return state;
}
