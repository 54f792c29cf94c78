// The field mix with webhooks on: an endpoint per live key on an HTTPS receiver in this process, and an operator's
// import every 10 seconds that changes one keyed facility's free units, so that ours delivers while it serves.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { EVENT_TYPES } from '../../server/domain/webhook-events.ts';
import { openStore } from '../../server/store/store.ts';
import { facilityOf, type BenchDb } from './data.ts';
import type { FieldWorld } from './field-mix.ts';

/** How often an import changes a keyed facility while the servers are measured. */
const CHANGE_EVERY_MS = 10_000;

export interface HooksRun {
  /** Endpoints registered, deliveries received, imports made. */
  figures(): { endpoints: number; deliveries: number; imports: number };
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

/** Starts the receiver, registers an endpoint for every live key of `world`, and starts the imports. */
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
  // Ordinary keyed facilities only: rebuilding the large one's views at every import would measure imports.
  const changed = world.keyed.filter((f) => f !== world.large);
  let imports = 0;
  const change = async () => {
    const i = changed[imports % changed.length]!;
    const facility = facilityOf(i, db.sizes[i]!);
    const first = facility.listings[0]!;
    first.free_units = (first.free_units + 1 + Math.floor(imports / changed.length)) % (first.total_units + 1);
    await store.applyImport({ facilities: [facility] }, 'bench');
    imports++;
  };
  const timer = setInterval(() => void change().catch(() => undefined), CHANGE_EVERY_MS);
  return {
    figures: () => ({ endpoints: world.keys.length, deliveries, imports }),
    stop: async () => {
      clearInterval(timer);
      await store.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    },
  };
}
