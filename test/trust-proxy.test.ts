// TRUST_PROXY over a real socket: a CIDR range or a name of trusted proxies lets X-Forwarded-For name the client
// for the panel's per-address login limits, a peer outside them is its own client, and a bad entry stops the start.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/program.ts';
import { parseTrustedProxies } from '../server/http/transport/client-address.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import { startPanel, type RunningPanel } from '../server/panel/server.ts';
import type { Store } from '../server/store/store.ts';
import { bufferIo } from './helpers/fixture.ts';
import { panelStore } from './helpers/panel.ts';

let store: Store;
let file: string;
let cleanup: () => Promise<void>;
let panel: RunningPanel | undefined;
beforeEach(async () => {
  ({ store, file, cleanup } = await panelStore());
});
afterEach(async () => {
  panel?.server.closeAllConnections();
  await panel?.close();
  panel = undefined;
  await cleanup();
});

/** A panel behind `trust`, whose addresses may each fail two logins; the status of a failing login per header. */
async function loginsThrough(trust: string, forwardedFor: string[]): Promise<number[]> {
  panel = await startPanel({
    store,
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'http://x',
    keyPrefix: 'svc',
    trustedProxies: parseTrustedProxies(trust),
    limiter: new LoginLimiter({ perAccount: 100, perAddress: 2, windowMs: 60_000 }),
  });
  const statuses: number[] = [];
  for (const [i, hops] of forwardedFor.entries()) {
    const r = await fetch(`${panel.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: panel.url, 'x-forwarded-for': hops, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: `nobody${i}@example.com`, password: 'wrong' }),
    });
    await r.arrayBuffer();
    statuses.push(r.status);
  }
  return statuses;
}

const A = '198.51.100.1';
const B = '198.51.100.2';

describe('TRUST_PROXY', () => {
  it('a range holding the peer: its X-Forwarded-For names each client, counted apart', async () => {
    expect(await loginsThrough('127.0.0.0/8', [A, A, A, B])).toEqual([401, 401, 429, 401]);
  });

  it('a range without the peer: a spoofed X-Forwarded-For is ignored, every try is the peer', async () => {
    expect(await loginsThrough('10.0.0.0/8', [A, B, `${B}, ${A}`])).toEqual([401, 401, 429]);
  });

  it('a chain of two proxies, the nearest by name, the next by range: the hop left of both is the client', async () => {
    const hops = (client: string) => `6.6.6.${client.length}, ${client}, 172.16.9.9`;
    expect(await loginsThrough('loopback, 172.16.0.0/12', [hops(A), hops(A), hops(A), hops(B)])).toEqual([
      401, 401, 429, 401,
    ]);
  });

  it.each([
    ['serve', ['serve', '--trust-proxy', '127.0.0.1,10.0.0.0/33']],
    ['panel', ['panel']],
  ])('an invalid entry stops %s at start: one line naming it, exit 2', async (_name, args) => {
    const io = bufferIo({ LISTINGS_DB: file, TRUST_PROXY: '127.0.0.1,10.0.0.0/33' });
    expect(await runCli(args, io)).toBe(2);
    expect(io.stderr().trimEnd().split('\n')).toHaveLength(1);
    expect(io.stderr()).toContain('"10.0.0.0/33"');
  });
});
