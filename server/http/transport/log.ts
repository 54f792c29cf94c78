// JSON request logs, one line each, buffered so that logging never costs a write per request.
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
  private buffer: string[] = [];
  private scheduled = false;

  constructor(private readonly write: (text: string) => void = (t) => process.stdout.write(t)) {}

  private now = 0;
  private nowText = '';

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
    this.line(
      `{"time":"${this.time()}","level":"info","request_id":"${requestId}","method":${JSON.stringify(method)},` +
        `"path":${JSON.stringify(path)},"status":${status},"duration_ms":${durationMs},` +
        `"key_id":${keyId === undefined ? 'null' : `"${keyId}"`}}`,
    );
  };

  /** The time's text, made once per millisecond. */
  private time(): string {
    const now = Date.now();
    if (now !== this.now) {
      this.now = now;
      this.nowText = new Date(now).toISOString();
    }
    return this.nowText;
  }

  private line(text: string): void {
    this.buffer.push(text);
    if (this.buffer.length >= 256) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => this.flush(), 50).unref();
    }
  }

  flush(): void {
    this.scheduled = false;
    if (this.buffer.length === 0) return;
    const text = this.buffer.join('\n') + '\n';
    this.buffer = [];
    this.write(text);
  }
}
