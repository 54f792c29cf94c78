// The panel's bodies over a real socket: a large one only on the import route, only from a logged-in operator whose
// Origin matched, streamed with a cap; every other route keeps a form's small limit; refusals come before the body.
import { readdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { createLogger } from '../server/logger.ts';
import { FORM_BYTES, UPLOAD_BYTES } from '../server/panel/admission.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import { PANEL_CONNECTIONS, startPanel, type RunningPanel } from '../server/panel/server.ts';
import type { Store } from '../server/store/store.ts';
import { demoJson, tempDir } from './helpers/fixture.ts';
import { OPERATOR, PASSWORD, panelClient, panelOver, panelStore } from './helpers/panel.ts';
import { sendBody, type SendOptions } from './helpers/raw-body.ts';
import { openSocket } from './helpers/raw-http.ts';
import { until } from './helpers/wait.ts';

const HUGE = 150 * 1024 * 1024;
/** The most a refused request may have had read of it: its head and what one socket read takes in besides. */
const FEW_BYTES = 256 * 1024;

let store: Store;
let cleanup: () => Promise<void>;
let panel: RunningPanel;
let port: number;
/** The server's side of each connection, to read how many bytes it took in. */
let accepted: Socket[];
/** The panel's log lines. */
const logged: string[] = [];

async function start(uploadBytes?: number) {
  panel = await startPanel({
    store,
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'http://127.0.0.1:8787',
    keyPrefix: 'svc',
    uploadBytes,
    logger: createLogger({ write: (line) => logged.push(line) }).logger,
  });
  port = Number(new URL(panel.url).port);
  accepted = [];
  panel.server.on('connection', (s: Socket) => accepted.push(s));
}

beforeEach(async () => {
  ({ store, cleanup } = await panelStore());
  await start();
});
afterEach(async () => {
  panel.server.closeAllConnections();
  await panel.close();
  await cleanup();
});

async function logIn(): Promise<string> {
  const login = await fetch(`${panel.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: panel.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: OPERATOR, password: PASSWORD }),
  });
  expect(login.status).toBe(303);
  return login.headers.get('set-cookie')!.split(';')[0]!;
}

function head(path: string, headers: Record<string, string>): string {
  const lines = Object.entries({ host: `127.0.0.1:${port}`, origin: panel.url, ...headers }).map(
    ([k, v]) => `${k}: ${v}\r\n`,
  );
  return `POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

const send = (requestHead: string, bodyBytes: number, opts: SendOptions = {}) =>
  sendBody(port, requestHead, bodyBytes, opts);

/** What the server read from its latest connection. */
const serverRead = () => accepted.at(-1)!.bytesRead;

const MULTIPART = 'multipart/form-data; boundary=x';

describe('before login', () => {
  it('answers 413 on its head to a large body on /login or any route but the import, multipart or not', async () => {
    for (const [path, type] of [
      ['/login', MULTIPART],
      ['/login', 'application/x-www-form-urlencoded'],
      ['/logout', MULTIPART],
      ['/facilities/wro-1/keys', MULTIPART],
      ['/keys/key_x/revoke', MULTIPART],
    ]) {
      const sent = await send(head(path!, { 'content-type': type!, 'content-length': String(HUGE) }), HUGE, {
        answerFirst: true,
      });
      expect([path, sent.reply?.status]).toEqual([path, 413]);
      expect(serverRead()).toBeLessThan(FEW_BYTES);
      // The connection ends with the answer: the rest of the body is not taken in.
      expect(sent.written).toBeLessThan(HUGE / 10);
    }
  });

  it('ends the connection of a chunked body once it passes the small limit', async () => {
    const sent = await send(head('/login', { 'content-type': MULTIPART, 'transfer-encoding': 'chunked' }), HUGE, {
      chunked: true,
    });
    expect(sent.reply).toBeUndefined();
    expect(sent.written).toBeLessThan(HUGE / 10);
    expect(serverRead()).toBeLessThan(FORM_BYTES + FEW_BYTES);
  });

  it('refuses an upload to the import route without a session, before reading its body', async () => {
    const sent = await send(head('/import', { 'content-type': MULTIPART, 'content-length': String(HUGE) }), HUGE, {
      answerFirst: true,
    });
    expect(sent.reply?.status).toBe(401);
    expect(serverRead()).toBeLessThan(FEW_BYTES);
  });

  it('answers Expect: 100-continue with the refusal, never with 100', async () => {
    const sent = await send(
      head('/login', { 'content-type': MULTIPART, 'content-length': String(HUGE), expect: '100-continue' }),
      0,
      { answerFirst: true },
    );
    expect(sent.reply?.status).toBe(413);
    expect(sent.reply?.interim).toEqual([]);
  });
});

describe('the import route, logged in', () => {
  it('refuses an upload from a foreign Origin before reading its body', async () => {
    const cookie = await logIn();
    const sent = await send(
      head('/import', {
        cookie,
        origin: 'https://evil.example',
        'content-type': MULTIPART,
        'content-length': String(HUGE),
      }),
      HUGE,
      { answerFirst: true },
    );
    expect(sent.reply?.status).toBe(403);
    expect(serverRead()).toBeLessThan(FEW_BYTES);
  });

  it('answers 413 to a Content-Length over the cap, before reading', async () => {
    const cookie = await logIn();
    const over = UPLOAD_BYTES + 1;
    const sent = await send(
      head('/import', { cookie, 'content-type': MULTIPART, 'content-length': String(over) }),
      over,
      { answerFirst: true },
    );
    expect(sent.reply?.status).toBe(413);
    expect(serverRead()).toBeLessThan(FEW_BYTES);
  });

  it('ends the connection of a chunked upload once it passes the cap', async () => {
    await panel.close();
    const cap = 1024 * 1024;
    await start(cap);
    const cookie = await logIn();
    const sent = await send(
      head('/import', { cookie, 'content-type': MULTIPART, 'transfer-encoding': 'chunked' }),
      8 * cap,
      { chunked: true },
    );
    expect(sent.reply).toBeUndefined();
    expect(sent.written).toBeLessThan(8 * cap);
    expect(serverRead()).toBeLessThan(cap + FEW_BYTES);
  });

  it('imports a file streamed through a temporary file, and removes the file', async () => {
    // A folder of its own: other test files upload at the same time into the shared one.
    const own = tempDir();
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = own.dir;
    onTestFinished(() => {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
      own.cleanup();
    });
    const cookie = await logIn();
    const page = await (await fetch(`${panel.url}/import`, { headers: { cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const data = demoJson();
    data.facilities[0].name = 'Streamed In';
    const form = new FormData();
    form.set('csrf', csrf);
    form.set('file', new Blob([JSON.stringify(data)], { type: 'application/json' }), 'data.json');
    const done = await fetch(`${panel.url}/import`, {
      method: 'POST',
      headers: { cookie, origin: panel.url },
      body: form,
    });
    expect(done.status).toBe(200);
    expect((await store.facilityHead(data.facilities[0].id))?.name).toBe('Streamed In');
    expect((await store.listAudit())[0]).toMatchObject({ action: 'import', actor: OPERATOR });
    expect(readdirSync(own.dir)).toEqual([]);
  });
});

describe('an upload with nowhere to go', () => {
  it('is answered 500, and the panel serves on', async () => {
    const cookie = await logIn();
    logged.length = 0;
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent/listings-test';
    try {
      const sent = await send(head('/import', { cookie, 'content-type': MULTIPART, 'content-length': '0' }), 0, {
        answerFirst: true,
      });
      expect(sent.reply?.status).toBe(500);
      expect(String(sent.reply?.body)).not.toContain('nonexistent');
      const error = JSON.parse(logged.join('')) as { level: string; error: { stack: string } };
      expect(error.level).toBe('error');
      expect(error.error.stack).toMatch(/\n\s+at /);
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
    expect((await fetch(`${panel.url}/login`)).status).toBe(200);
  });
});

describe('login limits', () => {
  it('count the addresses of one IPv6 /64 as one address', async () => {
    const limiter = new LoginLimiter({ perAccount: 100, perAddress: 3, windowMs: 60_000 });
    const handle = panelOver(store, { limiter });
    const { logIn } = panelClient(() => handle);
    for (let i = 1; i <= 3; i++)
      expect((await logIn(`x${i}@example.com`, 'wrong', `2001:db8:0:1::${i}`)).status).toBe(401);
    expect((await logIn(OPERATOR, PASSWORD, '2001:db8:0:1:ffff::9')).status).toBe(429);
    expect((await logIn(OPERATOR, PASSWORD, '2001:db8:0:2::1')).status).toBe(303);
  });
});

describe('the form token', () => {
  it('is still asked of a multipart body on any route but the import', async () => {
    const handle = panelOver(store);
    const { session, request } = panelClient(() => handle);
    const s = await session();
    const body = Buffer.from(`--x\r\nContent-Disposition: form-data; name="label"\r\n\r\nsneaky\r\n--x--\r\n`);
    const answer = await request('POST', '/facilities/wro-1/keys', {
      headers: { cookie: s.cookie, 'content-type': MULTIPART },
      body,
    });
    expect(answer.status).toBe(403);
    expect((await store.listKeys('wro-1')).map((k) => k.label)).not.toContain('sneaky');
  });
});

describe('connections', () => {
  it('closes connections from one address beyond its cap, and serves it again once some close', async () => {
    const sockets = await Promise.all(Array.from({ length: PANEL_CONNECTIONS.perAddress }, () => openSocket(port)));
    await until('every connection accepted', () => accepted.length === PANEL_CONNECTIONS.perAddress);
    const extra = await openSocket(port);
    await new Promise((r) => extra.once('close', r));
    sockets.pop()!.destroy();
    await until('a slot freed', async () => (await fetch(`${panel.url}/login`).catch(() => undefined))?.status === 200);
    for (const s of sockets) s.destroy();
  });

  it('sets its own header and keep-alive timeouts and a connection cap', () => {
    expect(panel.server.headersTimeout).toBe(10_000);
    // Checked every second, as the API's are: a head gets 10 s, not up to 40.
    expect((panel.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBe(
      1_000,
    );
    expect(panel.server.keepAliveTimeout).toBe(5_000);
    expect(panel.server.maxConnections).toBe(PANEL_CONNECTIONS.total);
  });
});
