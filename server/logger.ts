// The server's one logger: pino, JSON lines with string levels, keys redacted, written asynchronously to stdout.
import { writeSync } from 'node:fs';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** Warnings and errors only: no request lines. */
  quiet?: boolean;
  /** Where the lines go instead of stdout, one whole line per call (tests, the bench). */
  write?: (line: string) => void;
}

/** Fields that may carry a key or a session, wherever a caller puts them; the URL rules live in domain/keys.ts. */
export const REDACTED_PATHS = [
  'key',
  'api_key',
  'token',
  'password',
  'authorization',
  'cookie',
  '*.key',
  '*.api_key',
  '*.token',
  '*.password',
  '*.authorization',
  '*.cookie',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
];

/** A logger and the way to write out what it still buffers (on close, on SIGTERM; process exit flushes by itself). */
export interface LogOutput {
  logger: Logger;
  flush(): void;
  /**
   * At the end of a server's life: writes out every line still waiting, and resolves true once it is written. A reader
   * that does not take them within `ms` gets none of them (false, said on stderr): nothing may hold the exit after that.
   */
  end(ms: number): Promise<boolean>;
}

export function createLogger(opts: LoggerOptions = {}): LogOutput {
  const destination: DestinationStream & { flushSync?: () => void; end?: (ms: number) => Promise<boolean> } = opts.write
    ? { write: opts.write }
    : stdoutDestination();
  const logger = pino(
    {
      level: opts.quiet ? 'warn' : 'info',
      base: null,
      timestamp: isoTimeByMillisecond(),
      messageKey: 'message',
      // An error logged under `error` keeps its type, message and stack.
      serializers: { error: pino.stdSerializers.err },
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination,
  );
  return {
    logger,
    flush: () => flushQuietly(destination),
    end: (ms) => destination.end?.(ms) ?? Promise.resolve(true),
  };
}

/**
 * stdout through sonic-boom, asynchronous: lines wait until 32 KiB have gathered or 100 ms have passed, since each write
 * to the pipe wakes a thread of the pool and costs the loop several µs (the request log writing every few lines ran
 * 0.93x as fast). A warning or an error is written at once, with the lines before it. Past 16 MiB waiting (a reader
 * that stopped reading), lines are dropped and counted on stderr, so the log cannot grow memory without bound. Fed
 * Buffers (its `buffer` mode): in its default mode it measures all the text still waiting on every line.
 * pino.destination builds it, so pino flushes it at exit.
 */
function stdoutDestination(): DestinationStream & { flushSync: () => void; end: (ms: number) => Promise<boolean> } {
  // Its types declare only the default mode's write(string).
  const out = pino.destination({
    dest: 1,
    sync: false,
    contentMode: 'buffer',
    minLength: 32 * 1024,
    maxWrite: 64 * 1024,
    periodicFlush: 100,
    maxLength: MAX_WAITING,
  }) as unknown as SonicBoom;
  /** What is left waiting is dropped, as pino drops lines once stdout's reader has gone. */
  const giveUp = (ms: number) => {
    const nothing = () => true;
    Object.assign(out, { write: nothing, flush: () => undefined, flushSync: () => undefined });
    writeSync(2, `log: the lines still waiting were dropped: stdout was not read for ${ms / 1000} s at exit\n`);
  };
  out.on('drop', droppedLines());
  const destination = {
    // pino sets lastLevel before each write when the destination asks for it.
    [pino.symbols.needsMetadataGsym]: true,
    lastLevel: 0,
    // `out.write` is read at each call: pino replaces it with a no-op once stdout's reader has gone (EPIPE).
    write(line: string) {
      out.write(Buffer.from(line));
      if (destination.lastLevel >= WARN) out.flush();
    },
    flushSync: () => out.flushSync(),
    end: (ms: number) =>
      new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => (giveUp(ms), resolve(false)), ms);
        out.once('drain', () => (clearTimeout(timer), resolve(true)));
        // A write of what waits (an empty one if nothing does), then each write goes on until nothing is left.
        out.flush();
        out.minLength = 0;
      }),
  };
  return destination;
}

/** sonic-boom in its buffer mode, as far as this file uses it. */
type SonicBoom = NodeJS.EventEmitter & {
  write(data: Buffer): boolean;
  flush(): void;
  flushSync(): void;
  minLength: number;
};

const WARN = 40;
const MAX_WAITING = 16 * 1024 * 1024;

/**
 * Counts the lines dropped while stdout is not read, and says so on stderr: at the first drop, then the count of each
 * minute that had drops, and what is left untold at exit.
 */
function droppedLines(): () => void {
  let untold = 0;
  let timer: NodeJS.Timeout | undefined;
  const tell = () => {
    timer = undefined;
    if (untold === 0) return;
    writeSync(2, `log: ${untold} line(s) dropped: stdout was not read while ${MAX_WAITING / 1024 / 1024} MiB waited\n`);
    untold = 0;
  };
  process.once('exit', tell);
  return () => {
    untold++;
    if (timer) return;
    // The first drop is told at once, the next ones a minute later, together.
    if (untold === 1) tell();
    timer = setTimeout(tell, 60_000).unref();
  };
}

/**
 * pino's isoTime, formatted once per millisecond: a busy server writes many lines in one, and formatting a Date costs
 * a request line about a fifth of its time (1 µs of 4.6 with the write to a pipe).
 */
function isoTimeByMillisecond(): () => string {
  let last = Number.NaN;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== last) [last, text] = [now, `,"time":"${new Date(now).toISOString()}"`];
    return text;
  };
}

/** A flush that never throws: a destination not yet open (or already closed) has nothing to write. */
function flushQuietly(destination: { flushSync?: () => void }): void {
  try {
    destination.flushSync?.();
  } catch {
    // sonic-boom throws when its file descriptor is not ready yet, and then holds nothing.
  }
}

/**
 * The request log's logger, or undefined when the level drops request lines. Its lines hold only fields the handler
 * builds, the path already through the URL rules (redactSecrets), so it skips pino's redaction: with wildcard paths
 * that doubles the cost of a line (about 9 against 4 µs on the bench machine), paid on every request.
 */
export function requestLogger(logger: Logger | undefined): Logger | undefined {
  return logger?.isLevelEnabled('info') ? logger.child({}, { redact: { paths: [] } }) : undefined;
}
