// JSON request logs, one line each, buffered so that logging never costs a write per request.
export type LogEntry = Record<string, unknown>;

export class JsonLog {
  private buffer: string[] = [];
  private scheduled = false;

  constructor(private readonly write: (text: string) => void = (t) => process.stdout.write(t)) {}

  readonly log = (entry: LogEntry): void => {
    this.buffer.push(JSON.stringify({ time: new Date().toISOString(), ...entry }));
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
