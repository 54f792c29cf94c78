// Every command that listens says a port in use the same way: one line naming the port and the option that moves it.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliAsync, demoDb, tempDir } from './helpers/fixture.ts';

let blocker: Server;
let port: number;
let dir: ReturnType<typeof tempDir>;
let file: string;

beforeAll(async () => {
  blocker = createServer().listen(0, '127.0.0.1');
  await once(blocker, 'listening');
  port = (blocker.address() as AddressInfo).port;
  dir = tempDir();
  const demo = demoDb(dir.dir);
  file = demo.file;
  demo.db.close();
});
afterAll(() => {
  blocker.close();
  dir.cleanup();
});

const inUse = (option: string) => [
  `error: port ${port} on 127.0.0.1 is already in use: stop the other server or choose another with ${option}`,
];

describe('a port in use', () => {
  it.each([
    ['serve', () => ['serve', '--port', String(port)], '--port/PORT'],
    ['panel', () => ['panel', '--port', String(port)], '--port/PANEL_PORT'],
    ['serve --panel (its panel)', () => ['serve', '--port', '0', '--panel'], 'PANEL_PORT', { PANEL_PORT: 'blocked' }],
    [
      'demo (its API)',
      () => ['demo', '--db', join(dir.dir, 'a.db'), '--port', String(port), '--panel-port', '0'],
      '--port/PORT',
    ],
    [
      'demo (its panel)',
      () => ['demo', '--db', join(dir.dir, 'b.db'), '--port', '0', '--panel-port', String(port)],
      '--panel-port/PANEL_PORT',
    ],
  ])('%s: one line with the fix, exit 1', async (_name, args, option, env?: Record<string, string>) => {
    const panelPort = env?.PANEL_PORT === 'blocked' ? { PANEL_PORT: String(port) } : {};
    const r = await cliAsync(args(), { env: { LISTINGS_DB: file, ...panelPort } });
    // serve --panel says where it serves the API before its panel fails to listen.
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => !l.startsWith('storage-listings serving'))).toEqual(inUse(option));
    expect(r.status).toBe(1);
  });
});
