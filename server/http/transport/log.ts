// JSON request logs, one line each, buffered so that logging never costs a write per request.
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
  /** The lines not yet written, in pieces joined once per write: a request's line is five pieces, not one string. */
  private pieces: (string | number)[] = [];
  private lines = 0;
  private scheduled = false;

  constructor(private readonly write: (text: string) => void = stdoutWriter()) {}

  private now = 0;
  private nowText = '';
  // The request line's parts kept from the last request, and what they were made from.
  private method = '';
  private path = '';
  private status = -1;
  private route = '';
  private keyId: string | undefined = undefined;
  private keyText = keyPartOf(undefined);
  private head = '';

  readonly log = (entry: LogEntry): void => {
    // The entry is not copied to put the time first.
    const fields = JSON.stringify(entry);
    this.line(`{"time":"${this.time()}"${fields === '{}' ? '}' : `,${fields.slice(1)}`}`);
  };

  /**
   * A request's line, the same JSON as log() makes of its entry, written as text: JSON.stringify of an entry object per
   * request was most of the log's cost. The request id and key id are ours, of letters, digits and '-' and '_'.
   */
  readonly request: RequestLogger = (requestId, method, path, status, durationMs, keyId) => {
    // The parts that repeat from one request to the next (the millisecond's, the route's, the key's) are made when they
    // change; the line's pieces are joined only when the buffer is written.
    if (method !== this.method || path !== this.path || status !== this.status) {
      this.method = method;
      this.path = path;
      this.status = status;
      this.route = sequential(
        `","method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"duration_ms":`,
      );
    }
    if (keyId !== this.keyId) {
      this.keyId = keyId;
      this.keyText = keyPartOf(keyId);
    }
    this.time();
    this.pieces.push(this.head, requestId, this.route, durationMs, this.keyText);
    this.added();
  };

  /** The time's text (and the request line's head), made once per millisecond. */
  private time(): string {
    const now = Date.now();
    if (now !== this.now) {
      this.now = now;
      this.nowText = new Date(now).toISOString();
      this.head = sequential(`{"time":"${this.nowText}","level":"info","request_id":"`);
    }
    return this.nowText;
  }

  private line(text: string): void {
    this.pieces.push(text, '\n');
    this.added();
  }

  private added(): void {
    if (++this.lines >= 256) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(this.due, 50).unref();
    }
  }

  // One timer at a time: a flush by count leaves it running, so a busy log starts no timer per 256 lines; when it
  // fires it writes the lines that came since, none of them older than it.
  private readonly due = (): void => {
    this.scheduled = false;
    this.flush();
  };

  flush(): void {
    if (this.lines === 0) return;
    const text = this.pieces.join('');
    this.pieces = [];
    this.lines = 0;
    this.write(text);
  }
}

/** The request line's end, from its key id on. */
function keyPartOf(keyId: string | undefined): string {
  return sequential(`,"key_id":${keyId === undefined ? 'null' : `"${keyId}"`}}\n`);
}

// One flat string: a template's tree of parts, kept across lines, would be walked again by every join (valid UTF-16 only).
function sequential(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
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
