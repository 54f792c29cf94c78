// Ours' answers captured as bytes, compared, and replayed by the ceiling (bench/ceiling.ts) on the servers' core.
import { writeFileSync, rmSync } from 'node:fs';
import { get, type Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRequest } from './load.ts';
import { keyOf } from '../ceiling.ts';
import { printed, REPO, spawnServer, stopper, type ServerProcess } from './servers.ts';

export interface CapturedAnswer {
  status: number;
  /** Flat [name, value, ...] as sent, minus what Node's server adds on both sides (Date, Connection, Keep-Alive). */
  headers: string[];
  body: Buffer;
}

const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive']);

/** One answer of a server (on a new connection unless `agent` keeps them). */
export function capture(url: string, headers: Record<string, string>, agent: Agent | false = false) {
  return new Promise<CapturedAnswer>((resolve, reject) => {
    get(url, { headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const headers = raw.filter((_, i) => !ADDED_BY_NODE.has(raw[i - (i % 2)]!.toLowerCase()));
        resolve({ status: res.statusCode!, headers, body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

export const headerOf = (a: CapturedAnswer, name: string) =>
  a.headers.find((_, i, h) => i % 2 === 1 && h[i - 1]!.toLowerCase() === name);

/** Values that differ per request; compared by length. */
const PER_REQUEST = new Set(['x-request-id', 'ratelimit']);

/** What differs between two answers: status, header names and values, body bytes. */
export function differences(a: CapturedAnswer, b: CapturedAnswer): string[] {
  const out: string[] = [];
  if (a.status !== b.status) out.push(`status ${a.status} != ${b.status}`);
  if (!a.body.equals(b.body)) out.push('body bytes differ');
  for (let i = 0; i < Math.max(a.headers.length, b.headers.length); i += 2) {
    const [na, va, nb, vb] = [a.headers[i], a.headers[i + 1], b.headers[i], b.headers[i + 1]];
    const same =
      na?.toLowerCase() === nb?.toLowerCase() &&
      (PER_REQUEST.has(na?.toLowerCase() ?? '') ? va?.length === vb?.length : va === vb);
    if (!same) out.push(`${na}: ${va} != ${nb}: ${vb}`);
  }
  return out;
}

export interface Replayed {
  request: BenchRequest;
  answer: CapturedAnswer;
}

export interface Ceiling extends ServerProcess {
  /** Requests it had no answer for (answered 500), known once it has stopped. */
  misses(): number;
}

/** The ceiling replaying `answers` from a file of its own (bench/ceiling.ts reads it), each body once. */
export async function startCeiling(answers: Iterable<Replayed>): Promise<Ceiling> {
  const file = join(tmpdir(), `bench-ceiling-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  const bodies: string[] = [];
  const index = new Map<string, number>();
  const rows = [...answers].map(({ request, answer }) => {
    const body = answer.body.toString('base64');
    if (!index.has(body)) index.set(body, bodies.push(body) - 1);
    return [keyOf('GET', request.path, request.headers), answer.status, answer.headers, index.get(body)];
  });
  writeFileSync(file, JSON.stringify({ bodies, answers: rows }));
  const child = spawnServer(['--import', 'tsx', join(REPO, 'bench', 'ceiling.ts'), file]);
  child.stderr!.pipe(process.stderr);
  const [port] = await printed(child, 'ceiling', /\{"port":(\d+)\}/, 'stdout');
  const misses = printed(child, 'ceiling', /\{"misses":(\d+)\}/, 'stdout').catch(() => ['-1']);
  let missed = NaN;
  return {
    name: 'ceiling',
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    child,
    stop: async () => {
      await stopper(child)();
      missed = Number((await misses)[0]);
      rmSync(file, { force: true });
    },
    misses: () => missed,
  };
}
