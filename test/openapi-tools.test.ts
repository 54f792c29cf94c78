// The OpenAPI document as third-party tools see it: Redocly's and Spectral's linters find nothing, and a client generated
// from it by openapi-typescript type-checks and runs against the live server (304 and 404 included).
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, startKeyedServer, tempDir } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';

let server: Awaited<ReturnType<typeof startKeyedServer>>;
let dir: string;
let cleanup: () => void;
let documentFile: string;
const bin = (name: string) => join(REPO, 'node_modules', '.bin', name);
const run = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(command, args, { cwd: REPO, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });

beforeAll(async () => {
  server = await startKeyedServer('wro-1');
  ({ dir, cleanup } = tempDir());
  documentFile = join(dir, 'openapi.json');
  writeFileSync(documentFile, (await call(server.url, '/openapi.json')).text);
  writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
});
afterAll(async () => {
  await server.close();
  cleanup();
});

describe('the OpenAPI document under third-party tools', { timeout: 180_000 }, () => {
  it("lints with no error and no warning under Redocly's recommended rules", () => {
    const r = run(bin('redocly'), ['lint', '--extends', 'recommended', '--format', 'json', documentFile]);
    const report = JSON.parse(r.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(r.status).toBe(0);
  });

  it("lints with no problem at all under Spectral's spectral:oas", () => {
    const r = run(bin('spectral'), [
      'lint',
      documentFile,
      '--ruleset',
      join(dir, '.spectral.yaml'),
      '--format',
      'json',
      '--quiet',
      '--fail-severity',
      'hint',
    ]);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(r.status).toBe(0);
  });

  it('gives a typed client (openapi-typescript + openapi-fetch) that type-checks and runs against the live server', async () => {
    const generated = join(REPO, 'test', 'client', 'generated');
    mkdirSync(generated, { recursive: true });
    const gen = run(bin('openapi-typescript'), [documentFile, '--output', join(generated, 'api.ts')]);
    expect(gen.status, gen.stderr).toBe(0);
    const tsc = run(bin('tsc'), ['-p', join(REPO, 'test', 'client', 'tsconfig.json')]);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);

    // Not spawnSync: the server answers from this process, whose event loop must keep running.
    const program = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(REPO, 'test', 'client', 'program.ts')],
      {
        cwd: REPO,
        env: { ...process.env, BASE: server.url, KEY: server.key },
        timeout: 60_000,
      },
    );
    expect(program.stderr).toBe('');
    const seen = JSON.parse(program.stdout) as Record<string, unknown>;
    const api = json(await call(server.url, '/external/listings?sort=price&available=true', { key: server.key })) as {
      listings: { code: string; price: { gross: number; currency: string } }[];
    };
    expect(seen).toEqual({
      listings: api.listings.length,
      first: api.listings[0]!.code,
      gross: api.listings[0]!.price.gross,
      currency: api.listings[0]!.price.currency,
      revalidated: 304,
      notFound: 'not_found',
    });
  });
});
