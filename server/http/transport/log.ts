// JSON request logs, one line each, buffered so that logging never costs a write per request.
export type LogEntry = Record<string, unknown>;

export class JsonLog {
  private buffer: string[] = [];
  private scheduled = false;

  constructor(private readonly write: (text: string) => void = (t) => process.stdout.write(t)) {}

  private now = 0;
  private nowText = '';

  readonly log = (entry: LogEntry): void => {
    // One line per request: the timestamp text is made once per millisecond, and the entry is not copied to put it first.
    const now = Date.now();
    if (now !== this.now) {
      this.now = now;
      this.nowText = new Date(now).toISOString();
    }
    const fields = JSON.stringify(entry);
    this.buffer.push(`{"time":"${this.nowText}"${fields === '{}' ? '}' : `,${fields.slice(1)}`}`);
    if (this.buffer.length >= 256) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => this.flush(), 50).unref();
    }
  };

  flush(): void {
    this.scheduled = false;
    if (this.buffer.length === 0) return;
    const text = this.buffer.join('\n') + '\n';
    this.buffer = [];
    this.write(text);
  }
}
