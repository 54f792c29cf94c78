// The receiver in docs/webhooks.md, run as the page gives it: it verifies what the sender signs with the endpoint's
// secret (204), and refuses what another secret signed (400).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStore } from '../server/store/store.ts';
import { Deliverer } from '../server/webhooks/deliverer.ts';
import { demoDb, freePort, issueKey, REPO, tempDir } from './helpers/fixture.ts';
import { until } from './helpers/wait.ts';
import { selfSignedCert } from './helpers/webhook-receiver.ts';

const doc = readFileSync(join(REPO, 'docs', 'webhooks.md'), 'utf8');
const block = /## A receiver[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)![1]!;
// Inside the repository, so that the block's import of standardwebhooks resolves as in a partner's project.
mkdirSync(join(REPO, 'scratch'), { recursive: true });
const here = mkdtempSync(join(REPO, 'scratch', 'receiver-'));
const temp = tempDir();
afterAll(() => {
  rmSync(here, { recursive: true, force: true });
  temp.cleanup();
});

it('the documented receiver verifies a delivery and refuses one signed with another secret', async () => {
  expect(block.split('\n').length).toBeLessThanOrEqual(25);
  writeFileSync(join(here, 'receiver.mjs'), block);
  const tls = selfSignedCert(temp.dir);
  writeFileSync(join(temp.dir, 'key.pem'), tls.key);
  const { db, file } = demoDb(temp.dir);
  const keyId = issueKey(db, 'wro-1').id;
  db.close();
  const store = await openStore(file);
  const port = await freePort();
  const url = `https://127.0.0.1:${port}/`;
  const right = await store.webhooks.add({ keyId, url, events: ['listing.updated'] }, 'test');
  const wrong = await store.webhooks.add({ keyId, url, events: ['listing.updated'] }, 'test');
  const env = {
    ...process.env,
    WEBHOOK_SECRET: right.secret,
    TLS_KEY: join(temp.dir, 'key.pem'),
    TLS_CERT: tls.certFile,
    PORT: String(port),
  };
  const child = spawn(process.execPath, ['receiver.mjs'], { cwd: here, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  try {
    const sent = await store.webhooks.sendTest(right.endpoint.id, 'test');
    const refused = await store.webhooks.sendTest(wrong.endpoint.id, 'test');
    const deliverer = new Deliverer(store.webhooks, {
      publicUrl: 'https://x.example',
      allowPrivate: true,
      ca: tls.cert,
    });
    const log = await until('both answered', async () => {
      await deliverer.round();
      const rows = await store.webhooks.deliveries();
      return rows.every((r) => r.last_code !== null) && rows;
    });
    expect(log.find((r) => r.id === sent.id)!.last_code).toBe(204);
    expect(log.find((r) => r.id === refused.id)!.last_code).toBe(400);
    await until('the receiver printed the event', () => out.includes(`${sent.message_id} webhook.test`));
  } finally {
    child.kill();
    await store.close();
  }
});
