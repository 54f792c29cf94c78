// The logger's lines: string levels, ISO times, an error's stack under `error`, key-like fields redacted, and the
// request lines dropped by quiet while warnings and errors stay.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { createLogger, requestLogger } from './logger.ts';

const linesOf = (quiet: boolean) => {
  const lines: Record<string, unknown>[] = [];
  const { logger } = createLogger({ quiet, write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
};

it('writes an error with its stack and the request id, at every verbosity', () => {
  for (const quiet of [false, true]) {
    const { logger, lines } = linesOf(quiet);
    logger.error({ request_id: 'r-1', error: new TypeError('broken') }, 'unexpected failure');
    expect(lines).toEqual([
      {
        level: 'error',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.+Z$/),
        request_id: 'r-1',
        error: expect.objectContaining({
          type: 'TypeError',
          message: 'broken',
          stack: expect.stringMatching(/\n\s+at /),
        }),
        message: 'unexpected failure',
      },
    ]);
  }
});

it('drops request lines when quiet, and keeps warnings', () => {
  const { logger, lines } = linesOf(true);
  logger.info({ request_id: 'r-2' });
  logger.warn('serving again');
  expect(lines.map((l) => l.level)).toEqual(['warn']);
});

it('redacts fields that may hold a key, a token or a cookie', () => {
  const { logger, lines } = linesOf(false);
  const key = 'svc_live_0123456789abcdefghijklmnopqrstuv';
  logger.info({ key, headers: { 'x-api-key': key, cookie: 'sid=abc' }, nested: { token: 't', password: 'p' } });
  const text = JSON.stringify(lines);
  for (const secret of [key, 'sid=abc', '"t"', '"p"']) expect(text).not.toContain(secret);
  expect(lines[0]).toMatchObject({ key: '[redacted]', headers: { 'x-api-key': '[redacted]', cookie: '[redacted]' } });
});

it('gives request lines a logger of their own, the same line shape, and none when quiet', () => {
  expect(requestLogger(linesOf(true).logger)).toBeUndefined();
  expect(requestLogger(undefined)).toBeUndefined();
  const { logger, lines } = linesOf(false);
  requestLogger(logger)!.info({ request_id: 'r-3', method: 'GET', path: '/external/listings', status: 200 });
  logger.info({ key: 'svc_live_0123456789abcdefghijklmnopqrstuv' });
  expect(lines[0]).toEqual({
    level: 'info',
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.+Z$/),
    request_id: 'r-3',
    method: 'GET',
    path: '/external/listings',
    status: 200,
  });
  // The process's logger still redacts what other callers log.
  expect(lines[1]).toMatchObject({ key: '[redacted]' });
});

it('stamps each line with the millisecond it was written in, as the clock moves', () => {
  const { logger, lines } = linesOf(false);
  const times: [number, number][] = [];
  for (let i = 0; i < 3; i++) {
    const before = Date.now();
    logger.info({ line: i });
    times.push([before, Date.now()]);
    // The next line in a later millisecond (a busy wait of about one).
    while (Date.now() === times[i]![1]);
  }
  lines.forEach((line, i) => {
    const at = Date.parse(line.time as string);
    expect(at).toBeGreaterThanOrEqual(times[i]![0]);
    expect(at).toBeLessThanOrEqual(times[i]![1]);
  });
  expect(new Set(lines.map((l) => l.time)).size).toBe(3);
});

/** Lines of a process that logs 2,000 request-like lines to stdout in batches, as a busy server does, then ends. */
function loggedByChild(end: 'ends' | 'process.exit') {
  const child = `
    import { createLogger } from ${JSON.stringify(fileURLToPath(new URL('./logger.ts', import.meta.url)))};
    const { logger } = createLogger();
    let n = 0;
    const batch = () => {
      for (let i = 0; i < 50; i++, n++) logger.info({ n, path: '/rent/zürich-✓/A' + n });
      if (n < 2000) setImmediate(batch);
      else if (${JSON.stringify(end)} === 'process.exit') process.exit(0);
    };
    batch();`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(run.status).toBe(0);
  return run.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { n: number; path: string });
}

it('writes every line to stdout whole and in order, non-ASCII text intact', () => {
  const lines = loggedByChild('ends');
  expect(lines.map((l) => l.n)).toEqual(Array.from({ length: 2000 }, (_, n) => n));
  expect(lines[1999]!.path).toBe('/rent/zürich-✓/A1999');
});

it('writes out the lines still waiting when the process exits', () => {
  // At exit pino writes what waits at once; a write still under way may land after it, so only order can differ.
  const lines = loggedByChild('process.exit');
  expect(lines.map((l) => l.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 2000 }, (_, n) => n));
});

/** A child process that runs `body` with a logger on stdout; `lines` of text each stream gives, as they come. */
function childLogging(body: string, opts: { readStdout: boolean }) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { createLogger } from ${JSON.stringify(fileURLToPath(new URL('./logger.ts', import.meta.url)))};
       const { logger } = createLogger();
       ${body}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  if (opts.readStdout) child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  /** Resolves once `pattern` shows in the stream's text: no deadline of its own, the test's timeout is one. */
  const until = (stream: 'stdout' | 'stderr', pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const text = stream === 'stdout' ? stdout : stderr;
        if (pattern.test(text)) resolve(text);
      };
      child[stream].on('data', check);
      child.once('exit', (code) => reject(new Error(`the child exited (${code}) before ${pattern}: ${stderr}`)));
      check();
    });
  return { until, stop: () => child.kill('SIGKILL') };
}

it('writes an error at once, with the request lines before it, though the lines have not filled a write', async () => {
  // The loop is then kept busy (for a minute at most, should the test not stop it): neither the periodic flush nor
  // anything else can run, only the write already sent.
  const child = childLogging(
    `for (let n = 0; n < 3; n++) logger.info({ n });
     logger.error({ request_id: 'r-9', error: new Error('broken') }, 'unexpected failure');
     setImmediate(() => { for (const end = Date.now() + 60_000; Date.now() < end; ); process.exit(0); });`,
    { readStdout: true },
  );
  try {
    const text = await child.until('stdout', /unexpected failure.*\n/);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { level: string; n?: number });
    expect(lines.map((l) => [l.level, l.n])).toEqual([
      ['info', 0],
      ['info', 1],
      ['info', 2],
      ['error', undefined],
    ]);
  } finally {
    child.stop();
  }
});

it('writes a lone request line without waiting for more to come', async () => {
  const child = childLogging(`logger.info({ request_id: 'r-10' }); setInterval(() => {}, 1000);`, {
    readStdout: true,
  });
  try {
    expect(JSON.parse(await child.until('stdout', /\n/))).toMatchObject({ level: 'info', request_id: 'r-10' });
  } finally {
    child.stop();
  }
});

it('drops lines, and says so on stderr, once 16 MiB wait for a stdout nobody reads', async () => {
  // 40,000 lines of 1 KiB in batches: the pipe holds 64 KiB, so without a cap all of it would wait in memory.
  const child = childLogging(
    `const path = 'x'.repeat(1000);
     let n = 0;
     const batch = () => { for (let i = 0; i < 1000; i++) logger.info({ n: n++, path }); if (n < 40000) setImmediate(batch); };
     batch();
     setInterval(() => {}, 1000);`,
    { readStdout: false },
  );
  try {
    // The first drop is told at once; later ones are counted, and told a minute later or at exit.
    expect(await child.until('stderr', /dropped/)).toMatch(
      /^log: 1 line\(s\) dropped: stdout was not read while 16 MiB waited\n/,
    );
  } finally {
    child.stop();
  }
});
