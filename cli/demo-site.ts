// Everything `listings demo` does before serving: load demo data, issue fresh demo keys, write the pages, sign snapshots.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { ListingsError } from '../server/errors.ts';
import { REPO_ROOT } from '../server/repo.ts';
import { parseImport } from '../server/domain/import.ts';
import { exportSnapshots, type ExportSummary } from '../server/snapshots/publish/export.ts';
import {
  generateSigningKey,
  loadSigningKey,
  PRIVATE_KEY_FILE,
  type SigningKey,
} from '../server/snapshots/format/keygen.ts';
import type { PublishAudit } from '../server/store/audit.ts';
import type { Db } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { createKey, listKeys, revokeKey } from '../server/store/keys.ts';

export const WIDGET_BUNDLE = join(REPO_ROOT, 'dist', 'widget', 'storage-listings.js');
const DEMO_LABEL = 'demo (npm start)';
/** The origin the demo data's photo URLs are written with; replaced by the running server's public URL. */
const DATA_ORIGIN = 'http://127.0.0.1:8787';

/** The demo pages load the widget from the server, which serves this file: `npm run build` makes it (npm start runs it). */
export function assertWidgetBuilt(): void {
  if (!existsSync(WIDGET_BUNDLE))
    throw new ListingsError('widget_missing', `${WIDGET_BUNDLE} is missing: run npm run build (npm start does)`);
}

export function importDemoData(db: Db, publicUrl: string): void {
  const text = readFileSync(join(REPO_ROOT, 'demo', 'data.json'), 'utf8').replaceAll(DATA_ORIGIN, publicUrl);
  applyImport(db, parseImport(text, 'demo/data.json'));
}

/** Revokes the previous demo keys and issues one fresh key per facility (kept in memory and in the git-ignored data/ folder only). */
export function issueDemoKeys(db: Db, prefix: string, facilityIds: string[]): Record<string, string> {
  const tx = db.transaction(() => {
    for (const k of listKeys(db)) if (k.label === DEMO_LABEL && k.revoked_at === null) revokeKey(db, k.id);
    return Object.fromEntries(
      facilityIds.map((id) => [
        id,
        createKey(db, { facilityId: id, label: DEMO_LABEL, prefix, rate_per_s: 50, burst: 200 }).key,
      ]),
    );
  });
  return tx.immediate();
}

/** The demo's own files, all beside its database (data/ by default, git-ignored): another --db gives another, separate demo. */
export function demoPaths(dbFile: string) {
  const dir = dirname(dbFile);
  return {
    site: join(dir, 'demo-site'),
    keys: join(dir, 'demo-keys.json'),
    signing: join(dir, 'demo-signing'),
    operator: join(dir, 'demo-operator.json'),
  };
}

/** What demo/comparison-site.ts and the e2e test read: the running demo's URL and its fresh keys. Owner-only (0600). */
export interface DemoKeysFile {
  public_url: string;
  keys: Record<string, string>;
}

export function writeDemoKeys(file: string, publicUrl: string, keys: Record<string, string>): void {
  const body: DemoKeysFile = { public_url: publicUrl, keys };
  writeOwnerOnly(file, body);
}

/** JSON with secrets in it, readable by its owner only, replaced whole (a reader never sees half a file). */
export function writeOwnerOnly(file: string, body: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600); // exact, whatever the umask
  renameSync(tmp, file);
}

/**
 * Signs a fresh snapshot of every facility into outDir, with the demo's own signing key (made on first use); with
 * `audit`, each version is an export in the audit log, as `snapshot export` records it (the panel's Snapshots tab).
 */
export async function exportDemoSnapshots(
  db: Db,
  signingDir: string,
  outDir: string,
  publicUrl: string,
  audit?: PublishAudit,
): Promise<ExportSummary> {
  const key = await demoSigningKey(signingDir);
  return exportSnapshots(db, { outDir, key, publicUrl, ttlSeconds: DEMO_TTL_SECONDS, audit });
}

/** How long the demo's snapshots stay valid: a week, as `snapshot export` signs by default. */
export const DEMO_TTL_SECONDS = 7 * 86_400;

/** The demo's own signing key, made on first use. */
export async function demoSigningKey(signingDir: string): Promise<SigningKey> {
  const keyFile = join(signingDir, PRIVATE_KEY_FILE);
  if (!existsSync(keyFile)) {
    // Another demo starting at the same moment may win the race to make it: then use that one.
    await generateSigningKey(signingDir).catch((err: unknown) => {
      if (!(err instanceof ListingsError && err.code === 'key_exists')) throw err;
    });
  }
  return loadSigningKey(keyFile);
}

/** Fills the page templates of demo/pages with the live values and writes them to outDir (served at /demo/). */
export function writeDemoSite(outDir: string, values: Record<string, string>): void {
  const pages = join(REPO_ROOT, 'demo', 'pages');
  const write = (rel: string) => {
    const src = join(pages, rel);
    const dest = join(outDir, rel);
    mkdirSync(dirname(dest), { recursive: true });
    if (statSync(src).isDirectory()) {
      for (const e of readdirSync(src)) write(join(rel, e));
      return;
    }
    let content: string | Buffer = readFileSync(src);
    if (/\.(html|js|css)$/.test(rel)) {
      content = content.toString('utf8').replace(/\{\{([A-Z0-9_]+)\}\}/g, (m, name: string) => values[name] ?? m);
    }
    const tmp = `${dest}.tmp`;
    writeFileSync(tmp, content);
    renameSync(tmp, dest);
  };
  for (const e of readdirSync(pages)) write(e);
}
