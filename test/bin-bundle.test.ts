// bin/listings.js runs the compiled bundle, on plain Node; tools/build.ts tells tests and benches when to rebuild it.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleIsCurrent } from '../tools/build.ts';
import { REPO_ROOT } from '../server/repo.ts';
import { tempDir } from './helpers/fixture.ts';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const rootUrl = () => pathToFileURL(dir + '/');

/** A fake repository: one source file and a manifest that records it as it is now. */
function builtFrom(file = 'server/a.ts', text = 'export const a = 1;\n') {
  mkdirSync(join(dir, 'server'), { recursive: true });
  mkdirSync(join(dir, 'dist', 'server'), { recursive: true });
  writeFileSync(join(dir, file), text);
  const s = statSync(join(dir, file));
  writeFileSync(join(dir, 'dist', 'server', 'sources.json'), JSON.stringify({ files: [[file, s.size, s.mtimeMs]] }));
}

describe('bundleIsCurrent', () => {
  it('is true while every recorded source has its recorded size and modification time', () => {
    builtFrom();
    expect(bundleIsCurrent(rootUrl())).toBe(true);
  });

  it('is false once a source is touched, rewritten with another size, or gone', () => {
    builtFrom();
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'server', 'a.ts'), later, later);
    expect(bundleIsCurrent(rootUrl())).toBe(false);

    builtFrom();
    const recorded = statSync(join(dir, 'server', 'a.ts'));
    writeFileSync(join(dir, 'server', 'a.ts'), 'export const a = 12;\n');
    utimesSync(join(dir, 'server', 'a.ts'), recorded.atime, recorded.mtime); // same time, another size
    expect(bundleIsCurrent(rootUrl())).toBe(false);

    builtFrom('server/b.ts');
    rmSync(join(dir, 'server', 'b.ts'));
    expect(bundleIsCurrent(rootUrl())).toBe(false);
  });

  it('is false without a manifest, with a broken one, or with an empty list', () => {
    expect(bundleIsCurrent(rootUrl())).toBe(false);
    mkdirSync(join(dir, 'dist', 'server'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'server', 'sources.json'), '{"files":');
    expect(bundleIsCurrent(rootUrl())).toBe(false);
    writeFileSync(join(dir, 'dist', 'server', 'sources.json'), '{"files":[]}');
    expect(bundleIsCurrent(rootUrl())).toBe(false);
  });
});

describe('the real build', () => {
  // The test run's global setup builds dist/ when the sources changed, so the bundle exists and matches them here.
  it('records the sources of the server and the CLI, and the binary runs it on plain Node', () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'server', 'sources.json'), 'utf8')) as {
      files: [string][];
    };
    const paths = manifest.files.map(([p]) => p);
    expect(paths).toEqual(
      expect.arrayContaining([
        'cli/main.ts',
        'server/http/transport/server.ts',
        'shared/pricing.ts',
        'server/store/db.ts',
      ]),
    );
    expect(bundleIsCurrent(pathToFileURL(REPO_ROOT + '/'))).toBe(true);

    const bin = join(REPO_ROOT, 'bin', 'listings.js');
    const r = spawnSync(process.execPath, [bin, 'keys', '--help'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('revoke');
    expect(readFileSync(bin, 'utf8')).not.toMatch(/tsx|\.ts['"]/); // no loader, no TypeScript at run time
  });

  it('says to build, in one line with exit 1, when there is no bundle', () => {
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(REPO_ROOT, 'bin', 'listings.js'), join(dir, 'bin', 'listings.js'));
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'listings.js'), 'keys', 'list'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('error: listings is not built (dist/server/listings.mjs is missing): run npm run build\n');
  });

  it("runs through its shebang, as npm's bin link and npx run it", () => {
    const bin = join(REPO_ROOT, 'bin', 'listings.js');
    const shebang = readFileSync(bin, 'utf8').split('\n')[0]!;
    expect(shebang).toBe('#!/usr/bin/env node');
    const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(
      (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );
  });

  it('keeps tsx out of the dependencies: it is for development and tests only', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
    expect(Object.keys(pkg.devDependencies)).toContain('tsx');
  });
});
