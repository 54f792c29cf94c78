// docs/operations.md's Backups block, run as written against a database where the systemd unit puts it (LISTINGS_DB),
// from a directory without the demo: every copy holds the keys, and the check reads the copies it names.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { shellBlocks } from './helpers/doc-blocks.ts';
import { demoDbForAll, issueKey, REPO } from './helpers/fixture.ts';

let dir: string;
let file: string;
demoDbForAll((t) => {
  ({ dir, file } = t);
  issueKey(t.db, 'wro-1');
});

it('backs up $LISTINGS_DB: every copy has its keys, and the check says ok for each', () => {
  const doc = readFileSync(join(REPO, 'docs/operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Backups'));
  const [block] = shellBlocks('docs/operations.md', section);
  const work = join(dir, 'elsewhere');
  execFileSync('mkdir', ['-p', work]);
  const out = execFileSync('sh', ['-e', '-c', block!.text], {
    cwd: work,
    env: { ...process.env, LISTINGS_DB: file, NODE_PATH: join(REPO, 'node_modules') },
    encoding: 'utf8',
  });
  const copies = readdirSync(join(work, 'data/backups')).filter((f) => f.endsWith('.db'));
  expect(copies).toHaveLength(3);
  for (const copy of copies) {
    const db = new Database(join(work, 'data/backups', copy), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) FROM api_keys').pluck().get()).toBe(1);
    db.close();
    expect(out).toContain(`${copy}: ok (1 keys)`);
  }
  expect(readdirSync(work)).toEqual(['data']); // no empty database made beside the copies
  expect(readdirSync(join(work, 'data'))).toEqual(['backups']);
});

it('with LISTINGS_DB naming no file, makes no database and no copy that passes the check', () => {
  const doc = readFileSync(join(REPO, 'docs/operations.md'), 'utf8');
  const [block] = shellBlocks('docs/operations.md', doc.slice(doc.indexOf('## Backups')));
  const work = join(dir, 'wrong');
  execFileSync('mkdir', ['-p', work]);
  let out: string;
  try {
    out = execFileSync('sh', ['-c', block!.text], {
      cwd: work,
      env: { ...process.env, LISTINGS_DB: join(work, 'missing.db'), NODE_PATH: join(REPO, 'node_modules') },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (err) {
    out = (err as { stdout: string }).stdout;
  }
  expect(readdirSync(work)).not.toContain('missing.db');
  expect(out).not.toMatch(/: ok \(\d+ keys\)/);
});
