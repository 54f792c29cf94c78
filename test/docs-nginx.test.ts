// operations.md's nginx block is one the installed nginx accepts (`nginx -t` in a prefix of its own, a self-signed
// certificate in place of Let's Encrypt's): Debian 12's 1.22 and Ubuntu 24.04's 1.24 refuse `http2 on;`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { NGINX_PATH } from '../tools/test-programs.js';
import { REPO, tempDir } from './helpers/fixture.ts';

const { dir, cleanup } = tempDir('listings-nginx-');
afterAll(() => cleanup());

it('the nginx block passes nginx -t', () => {
  const doc = readFileSync(join(REPO, 'docs', 'operations.md'), 'utf8');
  const block = /^```nginx\n([\s\S]*?)^```/m.exec(doc)![1]!;
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=listings.example.com',
      '-keyout',
      join(dir, 'privkey.pem'),
      '-out',
      join(dir, 'fullchain.pem'),
    ],
    { stdio: 'ignore' },
  );
  mkdirSync(join(dir, 'logs'));
  const server = block
    .replaceAll('/etc/letsencrypt/live/listings.example.com', dir)
    // A port of its own on loopback: -t binds nothing, but names no address a real nginx here may hold.
    .replace(/listen 443\b/, 'listen 127.0.0.1:18443');
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `pid ${dir}/nginx.pid;\nerror_log ${dir}/logs/error.log;\nevents {}\nhttp {\naccess_log off;\n${server}}\n`,
  );
  const r = spawnSync(NGINX_PATH, ['-t', '-p', dir, '-c', conf], { encoding: 'utf8' });
  expect(r.stderr).toMatch(/test is successful/);
  expect(r.status).toBe(0);
});
