// The demo data exported as signed snapshots by the real CLI, once for a test file, and the CLI in this process to
// export, verify and spoil them further: shared by the snapshot CLI's test files.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { runCli } from '../../cli/program.ts';
import type { Db } from '../../server/store/db.ts';
import { bufferIo, cli, demoDb, tempDir, type CliResult } from './fixture.ts';

export interface ExportedSnapshots {
  /** The file's temporary folder: the database, the signing key, the export and whatever a test writes. */
  dir: string;
  db: Db;
  dbFile: string;
  /** The private key's PEM file, as `snapshot keygen` wrote it. */
  keyFile: string;
  kid: string;
  /** Where every facility was exported. */
  OUT(): string;
  /** `snapshot verify target --keys keys`, the keys of the export unless named. */
  verifyArgs(target: string, keys?: string, ...extra: string[]): string[];
  /** A copy of the exported folder to spoil. */
  copyOut(name: string): string;
  /** `snapshot export` of the file's database to `out`, signed with `signingKey` (the file's key unless named). */
  exportArgs(out: string, signingKey?: string, ...extra: string[]): string[];
}

/** The CLI in this process (fast); exit code and output as an operator would see them. */
export async function runInProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const io = bufferIo(env);
  const status = await runCli(args, io);
  return { status, stdout: io.stdout(), stderr: io.stderr() };
}

/**
 * The demo database, a signing key from `snapshot keygen` and every facility exported with `snapshot export` (the
 * real binary), made before the file's tests (its own beforeAll and afterAll); the fields are filled in by then.
 */
export function useExportedSnapshots(): ExportedSnapshots {
  const ctx = {} as ExportedSnapshots;
  let cleanup: (() => void) | undefined;
  ctx.OUT = () => join(ctx.dir, 'out');
  ctx.verifyArgs = (target, keys = join(ctx.OUT(), 'keys.json'), ...extra) => [
    'snapshot',
    'verify',
    target,
    '--keys',
    keys,
    ...extra,
  ];
  ctx.copyOut = (name) => {
    const copy = join(ctx.dir, name);
    cpSync(ctx.OUT(), copy, { recursive: true });
    return copy;
  };
  ctx.exportArgs = (out, signingKey = ctx.keyFile, ...extra) => [
    'snapshot',
    'export',
    '--db',
    ctx.dbFile,
    '--out',
    out,
    '--signing-key',
    signingKey,
    ...extra,
  ];
  beforeAll(() => {
    ({ dir: ctx.dir, cleanup } = tempDir());
    ({ db: ctx.db, file: ctx.dbFile } = demoDb(ctx.dir));
    const keygen = cli(['snapshot', 'keygen', '--out', join(ctx.dir, 'secrets'), '--json']);
    expect(keygen.status).toBe(0);
    ({ kid: ctx.kid, private_key: ctx.keyFile } = JSON.parse(keygen.stdout) as { kid: string; private_key: string });
    const exported = cli(ctx.exportArgs(ctx.OUT()));
    expect(exported.stderr).not.toMatch(/error/);
    expect(exported.status).toBe(0);
  });
  afterAll(() => {
    ctx.db?.close();
    cleanup?.();
  });
  return ctx;
}
