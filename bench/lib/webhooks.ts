// The field mix with webhooks on: an endpoint per live key on an HTTPS receiver in this process, and a test event
// queued every quarter second, each endpoint in turn, so that ours claims, signs, sends and records while it serves.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { EVENT_TYPES } from '../../server/domain/webhook-events.ts';
import { openStore } from '../../server/store/store.ts';
import type { BenchDb } from './data.ts';
import type { FieldWorld } from './field-mix.ts';

/** How often a test event is queued while the servers are measured. */
const CHANGE_EVERY_MS = 250;

export interface HooksRun {
  /** Endpoints registered, deliveries received, imports made. */
  figures(): { endpoints: number; deliveries: number; test_events: number };
  stop(): Promise<void>;
}

export type HooksTls = ReturnType<typeof hooksTls>;

/** A self-signed certificate for 127.0.0.1, and what ours needs to reach and trust the receiver on loopback. */
export function hooksTls(dir: string) {
  const [keyFile, certFile] = [join(dir, 'hooks-key.pem'), join(dir, 'hooks-cert.pem')];
  const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'];
  const curve = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1'];
  const files = ['-nodes', '-days', '1', '-keyout', keyFile, '-out', certFile];
  execFileSync('openssl', ['req', '-x509', ...curve, ...files, ...subject], { stdio: 'ignore' });
  const env = { WEBHOOKS_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: certFile };
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), env };
}

/** Starts the receiver, registers an endpoint for every live key of `world`, and starts the test events. */
export async function startHooks(db: BenchDb, world: FieldWorld, tls: HooksTls): Promise<HooksRun> {
  let deliveries = 0;
  const receiver = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const store = await openStore(db.file, { mustExist: true });
  for (const key of world.keys) await store.webhooks.add({ keyId: key.id, url, events: EVENT_TYPES }, 'bench');
  // Test events, which change no listing: what is measured is the deliveries' cost, not an import's (views rebuilt,
  // rental pages rendered again under their limit, 304s turned 200), which would be there without webhooks too.
  const endpoints = (await store.webhooks.list()).map((e) => e.id);
  let sent = 0;
  const change = async () => {
    await store.webhooks.sendTest(endpoints[sent % endpoints.length]!, 'bench');
    sent++;
  };
  const timer = setInterval(() => void change().catch(() => undefined), CHANGE_EVERY_MS);
  return {
    figures: () => ({ endpoints: world.keys.length, deliveries, test_events: sent }),
    stop: async () => {
      clearInterval(timer);
      await store.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    },
  };
}
