// `listings snapshot keygen|export|verify` end to end: the real CLI, stock OpenSSL, and HTTP.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Snapshot } from '../shared/listing.ts';
import { exportSnapshots } from '../server/snapshots/publish/export.ts';
import { loadSigningKey } from '../server/snapshots/format/keygen.ts';
import { cli, cliAsync, demoImport } from './helpers/fixture.ts';
import { runInProcess as run, useExportedSnapshots } from './helpers/snapshot-export.ts';

const snap = useExportedSnapshots();
const { OUT, verifyArgs, copyOut, exportArgs } = snap;

describe('snapshot keygen', () => {
  it('writes the private key with mode 600 and refuses to overwrite it without --force', () => {
    expect(statSync(snap.keyFile).mode & 0o777).toBe(0o600);
    const again = cli(['snapshot', 'keygen', '--out', join(snap.dir, 'secrets')]);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists.*--force/);
  });
});

describe('snapshot export -> verify', () => {
  it('exports every facility in the contract layout and verifies with the real binary', () => {
    for (const f of demoImport().facilities) {
      const text = readFileSync(join(OUT(), f.id, 'listings.json'), 'utf8');
      expect(Snapshot.parse(JSON.parse(text))).toMatchObject({ facility: { id: f.id }, kid: snap.kid, version: 1 });
    }
    const r = cli(verifyArgs(join(OUT(), 'wro-1')));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/signature\s+valid Ed25519/);
    expect(r.stdout).toContain(`kid        ${snap.kid}`);
    expect(r.stdout).toMatch(/expires\s+\S+ \(in 6d 23h/);
    expect(r.stdout).toMatch(/version\s+1 \(no --min-version/);
    expect(r.stdout).toMatch(/listings\s+6/);
  });

  it('prints the checks as JSON and accepts the file path as well as its folder', async () => {
    const r = await run([...verifyArgs(join(OUT(), 'krk-1', 'listings.json')), '--min-version', '1', '--json']);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      checked: { kid: snap.kid, version: 1, min_version: 1, facility: { id: 'krk-1' }, listings: 3 },
    });
  });

  it('fails with a distinct reason and exit 1 for a flipped byte, a swapped signature, a wrong key, an expired file and a lower version', async () => {
    const reasons: Record<string, string> = {};
    const expectFailure = async (name: string, args: string[], reason: string) => {
      const r = await run([...args, '--json']);
      expect(r.status, name).toBe(1);
      expect(JSON.parse(r.stdout), name).toMatchObject({ ok: false, reason });
      expect(r.stderr, name).toContain(reason);
      reasons[name] = reason;
    };

    const flipped = copyOut('flipped');
    const file = join(flipped, 'wro-1', 'listings.json');
    const bytes = readFileSync(file);
    const at = bytes.indexOf('"gross":') + 8;
    bytes[at] = bytes[at] === 0x31 ? 0x32 : 0x31; // one digit of a price
    writeFileSync(file, bytes);
    await expectFailure('flipped byte', verifyArgs(join(flipped, 'wro-1')), 'signature_invalid');

    const swapped = copyOut('swapped');
    // The signature a verifier reads: the one of the version named inside listings.json.
    cpSync(join(swapped, 'krk-1', 'v1', 'listings.json.sig'), join(swapped, 'wro-1', 'v1', 'listings.json.sig'));
    await expectFailure('swapped signature', verifyArgs(join(swapped, 'wro-1')), 'signature_invalid');

    const other = join(snap.dir, 'other');
    expect((await run(['snapshot', 'keygen', '--out', join(other, 'secrets')])).status).toBe(0);
    expect(
      (await run(exportArgs(join(other, 'out'), join(other, 'secrets', 'signing-key.pem'), '--facility', 'zrh-1')))
        .status,
    ).toBe(0);
    await expectFailure('wrong key', verifyArgs(join(OUT(), 'wro-1'), join(other, 'out', 'keys.json')), 'unknown_kid');

    // Signed with the real key a minute ago, valid for 1 s: already expired, with no wait (verify reads the real clock).
    const shortLived = join(snap.dir, 'short');
    const key = await loadSigningKey(snap.keyFile);
    await exportSnapshots(snap.db, {
      outDir: shortLived,
      key,
      publicUrl: 'http://127.0.0.1:8787',
      facilityIds: ['ber-1'],
      ttlSeconds: 1,
      now: new Date(Date.now() - 60_000),
    });
    await expectFailure('expired', verifyArgs(join(shortLived, 'ber-1'), join(shortLived, 'keys.json')), 'expired');

    const old = copyOut('old');
    expect((await run(exportArgs(OUT(), snap.keyFile, '--facility', 'wro-1'))).status).toBe(0);
    const current = await run([...verifyArgs(join(OUT(), 'wro-1')), '--min-version', '2', '--json']);
    expect(JSON.parse(current.stdout)).toMatchObject({ ok: true, checked: { version: 2 } });
    await expectFailure('lower version', [...verifyArgs(join(old, 'wro-1')), '--min-version', '2'], 'rollback');

    expect(new Set(Object.values(reasons))).toEqual(
      new Set(['signature_invalid', 'unknown_kid', 'expired', 'rollback']),
    );
    // The same failure from the real binary: exit 1 and the reason on stderr.
    const real = cli(verifyArgs(join(flipped, 'wro-1')));
    expect(real.status).toBe(1);
    expect(real.stderr).toMatch(/^error: .*signature_invalid/);
  });

  it('reports a missing file as unreadable (exit 1)', async () => {
    const r = await run(verifyArgs(join(snap.dir, 'nowhere')));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unreadable');
  });
});

describe('verification with stock tools and over HTTP', () => {
  it('openssl pkeyutl -verify -rawin accepts the file with the exported PEM key, and rejects a changed byte', () => {
    const help = spawnSync('openssl', ['pkeyutl', '-help'], { encoding: 'utf8' });
    expect(`${help.stdout}${help.stderr}`).toContain('-rawin');
    const folder = join(OUT(), 'zrh-1');
    const sig = JSON.parse(readFileSync(join(folder, 'listings.json.sig'), 'utf8')) as { kid: string; sig: string };
    const raw = join(snap.dir, 'zrh-1.sig.bin');
    writeFileSync(raw, Buffer.from(sig.sig, 'base64url'));
    const opensslVerify = (file: string) =>
      spawnSync(
        'openssl',
        [
          'pkeyutl',
          '-verify',
          '-pubin',
          '-inkey',
          join(OUT(), 'keys', `${sig.kid}.pem`),
          '-rawin',
          '-in',
          file,
          '-sigfile',
          raw,
        ],
        { encoding: 'utf8' },
      );
    const ok = opensslVerify(join(folder, 'listings.json'));
    expect(ok.stdout).toContain('Signature Verified Successfully');
    expect(ok.status).toBe(0);
    const changed = join(snap.dir, 'zrh-1.changed.json');
    writeFileSync(changed, readFileSync(join(folder, 'listings.json'), 'utf8').replace('"version":', '"version":9'));
    expect(opensslVerify(changed).status).not.toBe(0);
  });

  it('listings snapshot verify fetches listings.json, its .sig and keys.json over HTTP', async () => {
    const tampered = new Map<string, Buffer>();
    const server = await serveFolder(OUT(), tampered);
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const ok = await cliAsync(['snapshot', 'verify', `${base}/wro-1/listings.json`, '--keys', `${base}/keys.json`]);
      expect(ok.stderr).toBe('');
      expect(ok.status).toBe(0);
      expect(ok.stdout).toContain(`verified ${base}/wro-1/listings.json`);
      const folder = await cliAsync(['snapshot', 'verify', `${base}/krk-1/`, '--keys', `${base}/keys.json`, '--json']);
      expect(JSON.parse(folder.stdout)).toMatchObject({ ok: true, location: `${base}/krk-1/listings.json` });

      tampered.set(
        '/wro-1/listings.json',
        Buffer.from(
          readFileSync(join(OUT(), 'wro-1', 'listings.json'), 'utf8').replace('"free_units":', '"free_units":1'),
        ),
      );
      const bad = await cliAsync(['snapshot', 'verify', `${base}/wro-1/listings.json`, '--keys', `${base}/keys.json`]);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('signature_invalid');
      const missing = await cliAsync([
        'snapshot',
        'verify',
        `${base}/nope-1/listings.json`,
        '--keys',
        `${base}/keys.json`,
      ]);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(/unreadable.*HTTP 404/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

/** A plain static file server over a folder, as any static host would be; `override` serves other bytes for a path. */
function serveFolder(root: string, override: Map<string, Buffer>): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    try {
      const body = override.get(path) ?? readFileSync(join(root, path));
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
