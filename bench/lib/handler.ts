// The handler alone, in this process: the field mix's rotation answered without sockets, µs per request by kind, and
// with --base the base checkout's handler beside it in paired rounds. The server's figures move by several per cent
// from run to run; a change worth a few per cent of the handler shows here.
import { join } from 'node:path';
import type { BenchRun } from './context.ts';
import { describeDb } from './data.ts';
import { FIELD_FULL, FIELD_QUICK, fieldRotation, generateFieldDb, issueFieldKeys, type Kind } from './field-mix.ts';
import { median, medianInterval } from './measure.ts';
import { table } from './report.ts';
import { REPO } from './servers.ts';
import type { Answer, RequestHandler } from '../../server/http/transport/answer.ts';

/** Requests of one batch, about what the server answers between two reads of its sockets under the field mix. */
const BATCH = 20;

type Injected = { method: string; url: string; headers: Record<string, string>; remoteAddress: string; kind: Kind };

/** A checkout's handler over the database, with limits far above what this run sends (the handler's cost, not its refusals). */
async function handlerOf(checkout: string, file: string): Promise<RequestHandler> {
  const { createHandler } = (await import(join(checkout, 'server', 'http', 'handler.ts'))) as {
    createHandler: (o: object) => RequestHandler;
  };
  const { openDb } = (await import(join(checkout, 'server', 'store', 'db.ts'))) as {
    openDb: (file: string, o: object) => { close(): void };
  };
  const plenty = { rate: 1e9, burst: 1e9 };
  const db = openDb(file, { mustExist: true });
  const handler = createHandler({
    db,
    publicUrl: 'http://127.0.0.1:8787',
    keyPrefix: 'svc',
    defaultLimit: plenty,
    authFailureLimit: plenty,
    pageLimit: plenty,
    pageRenderLimit: plenty,
    lastUseIntervalMs: 30_000,
  });
  // Its database connection closes with it.
  return { ...handler, close: () => (handler.close(), db.close()) };
}

/** Each answer's headers walked as Node's writeHead walks them: the object's shape costs there too. */
let walked = 0;
function walk(answer: Answer): void {
  for (const name in answer.headers) if (Object.hasOwn(answer.headers, name)) walked += name.length;
}

/** µs per request over `requests`, in batches as the transport answers them. */
function timed(handler: RequestHandler, requests: readonly Injected[]): number {
  const began = process.hrtime.bigint();
  for (let i = 0; i < requests.length; i += BATCH)
    handler.batch(() => {
      for (const req of requests.slice(i, i + BATCH)) walk(handler.answer(req));
    });
  return Number(process.hrtime.bigint() - began) / 1000 / requests.length;
}

/** Each side's figures over `rounds` rounds; which side goes first alternates, so a slow spell lands on both. */
function paired(sides: readonly RequestHandler[], rounds: number, measure: (h: RequestHandler) => number): number[][] {
  const times = sides.map((): number[] => []);
  for (let i = 0; i < rounds; i++) {
    const order = sides.map((_, k) => (i % 2 === 0 ? k : sides.length - 1 - k));
    for (const k of order) times[k]!.push(measure(sides[k]!));
  }
  return times;
}

export async function handlerAlone(r: BenchRun) {
  const settings = { ...(r.quick ? FIELD_QUICK : FIELD_FULL), unkeyedLarge: 0 };
  const db = generateFieldDb(r.dir, settings);
  const world = issueFieldKeys(db, settings);
  const rotation = fieldRotation(world, settings);
  const ours = await handlerOf(REPO, db.file);
  const base = r.base === undefined ? undefined : await handlerOf(r.base, db.file);
  const injected = (q: (typeof rotation)[number]['revalidates'] & object): Omit<Injected, 'kind'> => ({
    method: 'GET',
    url: q.path,
    headers: { host: '127.0.0.1', ...q.headers },
    remoteAddress: q.headers['x-forwarded-for'] ?? '127.0.0.1',
  });
  for (const q of rotation)
    if (q.revalidates) q.headers['if-none-match'] = String(ours.answer(injected(q.revalidates)).headers.etag ?? '');
  const requests = rotation.map((q) => ({ ...injected(q), kind: q.kind }));
  const sides = [ours, ...(base ? [base] : [])];
  // First sights (views built, bodies compressed) stay out of the rounds, as in the server's.
  for (let i = 0; i < 2; i++) for (const h of sides) timed(h, requests);
  const rounds = r.quick ? 3 : r.rounds * 3;
  const times = paired(sides, rounds, (h) => timed(h, requests));
  const kinds = [...new Set(requests.map((q) => q.kind))];
  const byKind = kinds.map((kind) => {
    const of = requests.filter((q) => q.kind === kind);
    const us = paired(sides, r.quick ? 3 : 9, (h) => timed(h, of)).map(median);
    return { kind, share_pct: Math.round((of.length / requests.length) * 1000) / 10, us };
  });
  for (const h of sides) h.close();
  const round2 = (x: number) => Math.round(x * 100) / 100;
  const perRound = base ? times[1]!.map((b, i) => b / times[0]![i]!) : [];
  const entry = {
    database: describeDb(db),
    requests: requests.length,
    batch: BATCH,
    rounds,
    ours_us_per_req: round2(median(times[0]!)),
    ...(base && {
      base_us_per_req: round2(median(times[1]!)),
      ours_speedup_vs_base: round2(median(perRound)),
      ours_speedup_vs_base_interval: medianInterval(perRound).map(round2),
    }),
    kinds: Object.fromEntries(byKind.map((k) => [k.kind, { share_pct: k.share_pct, us: k.us.map(round2) }])),
  };
  r.out(
    `\nhandler alone (${entry.database}; the field mix's ${requests.length} requests in batches of ${BATCH}, no sockets, ${rounds} rounds):\n` +
      table(
        ['kind', 'share %', 'ours µs', ...(base ? ['base µs'] : [])],
        byKind.map((k) => [k.kind, k.share_pct, ...k.us.map(round2)]),
      ) +
      `\nours ${entry.ours_us_per_req} µs a request` +
      (base
        ? `, base ${entry.base_us_per_req}; base / ours, median of paired rounds: ${entry.ours_speedup_vs_base} (95 % ${entry.ours_speedup_vs_base_interval!.join('-')})\n`
        : '\n'),
  );
  if (walked === 0) r.broken.push('handler alone: no answer had headers');
  return entry;
}
