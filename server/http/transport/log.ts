// JSON logs, one line each, buffered so that logging never costs a write per request.
import { writeSync } from 'node:fs';
export type LogEntry = Record<string, unknown>;

/** One answered request, as the request log records it (its duration in ms; the key's id once the key is known). */
export type RequestLogger = (
  requestId: string,
  method: string,
  path: string,
  status: number,
  durationMs: number,
  keyId: string | undefined,
) => void;

export class JsonLog {
  /** The lines not yet written, joined once per write. */
  private lines: string[] = [];
  private scheduled = false;

  constructor(private readonly write: (text: string) => void = stdoutWriter()) {}

  readonly log = (entry: LogEntry): void => {
    this.lines.push(JSON.stringify({ time: new Date().toISOString(), ...entry }));
    if (this.lines.length >= 256) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(this.due, 50).unref();
    }
  };

  /** A request's line: the entry log() writes, its fields named as every log line's are. */
  readonly request: RequestLogger = (requestId, method, path, status, durationMs, keyId) =>
    this.log({
      level: 'info',
      request_id: requestId,
      method,
      path,
      status,
      duration_ms: durationMs,
      key_id: keyId ?? null,
    });

  // One timer at a time: a flush by count leaves it running, so a busy log starts no timer per 256 lines; when it
  // fires it writes the lines that came since, none of them older than it.
  private readonly due = (): void => {
    this.scheduled = false;
    this.flush();
  };

  flush(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.join('\n') + '\n';
    this.lines = [];
    this.write(text);
  }
}

/**
 * A writer to fd 1 that writes directly: process.stdout is a stream (a net.Socket on a pipe, a Writable on a file)
 * whose writes run the same stream code as every HTTP answer, and, mixed in, make that code slower for the answers.
 * When fd 1 cannot take a text (a non-blocking pipe that is full, an error), the rest of it goes through
 * process.stdout, and so does every text after it until process.stdout has handed all it holds to the kernel: a direct
 * write never overtakes lines queued there.
 */
export function stdoutWriter(fd = 1): (text: string) => void {
  // Opened now, process.stdout makes a pipe non-blocking: a reader that stalls makes lines queue, not the loop wait.
  if (fd === 1) void process.stdout;
  let queued = false;
  return (text) => {
    if (queued && process.stdout.writableLength > 0) {
      process.stdout.write(text);
      return;
    }
    queued = false;
    const bytes = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    } catch {
      queued = true;
      process.stdout.write(bytes.subarray(done));
    }
  };
}
