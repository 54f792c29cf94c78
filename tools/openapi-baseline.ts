// `npm run openapi:baseline`: rewrites the committed OpenAPI baseline that the breaking-change check (Optic) holds the document to.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../server/http/api/openapi.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
export const BASELINE_FILE = join(REPO, 'test', 'fixtures', 'openapi-baseline.json');
/** Optic's breaking-changes ruleset, with a major version bump no excuse: the baseline is rewritten on purpose instead. */
export const STANDARD_FILE = join(REPO, 'test', 'fixtures', 'optic-standard.yml');
const OPTIC = join(REPO, 'node_modules', '.bin', 'optic');
/** One fixed server URL, so the baseline does not change with the port a test or a demo runs on. */
const BASELINE_URL = 'https://listings.example.com';

export type OpenApiDocument = ReturnType<typeof openApiDocument>;

export function currentDocument(): OpenApiDocument {
  return openApiDocument(BASELINE_URL);
}

export const documentText = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

export interface CheckResult {
  /** Optic's exit status: 0 when no rule found a breaking change. */
  status: number | null;
  /** Optic's report: each breaking change with the rule it breaks. */
  output: string;
}

/** Optic's diff of `head` against the baseline file, offline: telemetry and the update check off. */
export function breakingChanges(head: unknown, baseline = BASELINE_FILE): CheckResult {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-check-'));
  try {
    const headFile = join(dir, 'openapi.json');
    writeFileSync(headFile, documentText(head));
    const r = spawnSync(OPTIC, ['diff', baseline, headFile, '--check', '--standard', STANDARD_FILE], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, OPTIC_TELEMETRY_LEVEL: 'off', NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1' },
    });
    return { status: r.status, output: `${r.stdout}${r.stderr}${r.error ? String(r.error) : ''}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const { status, output } = breakingChanges(currentDocument());
    process.stdout.write(output);
    process.exitCode = status ?? 1;
  } else {
    writeFileSync(BASELINE_FILE, documentText(currentDocument()));
    process.stdout.write(`wrote ${BASELINE_FILE}\n`);
  }
}
