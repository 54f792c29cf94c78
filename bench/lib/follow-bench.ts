// The publish bench's follower part: a mirror from zero of a folder and of an S3 prefix, then one changed facility.
import { join } from 'node:path';
import { REPO } from './servers.ts';

interface Run {
  code: number | null;
  seconds: number;
  stdout: string;
  stderr: string;
}

export interface FollowBenchInput {
  dir: string;
  runNode(argv: string[], env: NodeJS.ProcessEnv): Promise<Run>;
  /** Writes the folder and the S3 prefix again after `change` (a CLI publish to each). */
  publishBoth(): Promise<void>;
  change(): void;
  /** The published folder and the S3 prefix as the follower reads them (a path, an http URL). */
  sources: { name: string; base: string; keys: string }[];
  env: NodeJS.ProcessEnv;
}

interface Followed {
  summary: { mode: string; listed: number; fetched: number; withdrawn: number; reads: string[]; seconds: number };
  max_rss_mib: number;
}

export async function benchFollow(input: FollowBenchInput) {
  const follow = async (s: { name: string; base: string; keys: string }): Promise<Followed & { seconds: number }> => {
    const argv = [
      '--import',
      'tsx',
      join(REPO, 'bench', 'lib', 'follow-run.ts'),
      s.base,
      s.keys,
      join(input.dir, `mirror-${s.name}`),
    ];
    const run = await input.runNode(argv, input.env);
    if (run.code !== 0) throw new Error(`follow ${s.name} exited with ${run.code}: ${run.stderr}`);
    return { ...(JSON.parse(run.stdout) as Followed), seconds: run.seconds };
  };
  const fromZero = [];
  for (const s of input.sources) fromZero.push({ source: s.name, ...(await follow(s)) });
  input.change();
  await input.publishBoth();
  const oneChange = [];
  for (const s of input.sources) {
    const f = await follow(s);
    const besidesKeys = f.summary.reads.filter((r) => !r.endsWith('keys.json'));
    oneChange.push({ source: s.name, ...f, reads_besides_keys: besidesKeys.length, read: besidesKeys });
  }
  const results = {
    from_zero: fromZero.map((f) => ({
      source: f.source,
      seconds: round(f.seconds),
      follow_seconds: f.summary.seconds,
      facilities: f.summary.fetched,
      files_read: f.summary.reads.length,
      peak_rss_mib: f.max_rss_mib,
    })),
    one_changed: oneChange.map((f) => ({
      source: f.source,
      seconds: round(f.seconds),
      facilities_applied: f.summary.fetched + f.summary.withdrawn,
      reads_besides_keys: f.reads_besides_keys,
      read: f.read,
      peak_rss_mib: f.max_rss_mib,
    })),
  };
  const rows: (string | number)[][] = [
    ...results.from_zero.map((f) => [
      `follow from zero, ${f.source}`,
      f.seconds,
      f.files_read,
      `${f.facilities} facilities; peak RSS ${f.peak_rss_mib} MiB; follow itself ${f.follow_seconds} s`,
    ]),
    ...results.one_changed.map((f) => [
      `follow after 1 change, ${f.source}`,
      f.seconds,
      f.reads_besides_keys,
      `files besides keys.json; ${f.facilities_applied} facility applied: ${f.read.join(' ')}`,
    ]),
  ];
  return { results, rows };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
