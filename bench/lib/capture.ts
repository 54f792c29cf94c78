// One answer of a server as bytes the ceiling can replay, and what differs between two such answers.
import { get, type Agent } from 'node:http';

export interface CapturedAnswer {
  status: number;
  /** Flat [name, value, name, value, ...] as our server sent them, minus what Node adds itself (Date, Connection, Keep-Alive). */
  headers: string[];
  body: string; // base64
}

/** Headers Node's http server adds by itself, on both servers alike. */
const ADDED_BY_NODE = new Set(['date', 'connection', 'keep-alive']);

/** One answer of a server, as the ceiling must replay it (on a new connection unless `agent` keeps them). */
export function capture(
  url: string,
  headers: Record<string, string>,
  agent: Agent | false = false,
): Promise<CapturedAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = res.rawHeaders;
        const flat: string[] = [];
        for (let i = 0; i < raw.length; i += 2)
          if (!ADDED_BY_NODE.has(raw[i]!.toLowerCase())) flat.push(raw[i]!, raw[i + 1]!);
        resolve({ status: res.statusCode!, headers: flat, body: Buffer.concat(chunks).toString('base64') });
      });
    }).on('error', reject);
  });
}

/** The parts of an answer that may differ between two requests to our server (per-request values). */
const PER_REQUEST = new Set(['x-request-id', 'ratelimit']);

/** Same status, header names and values (per-request ones by length), and body bytes; returns what differs. */
export function differences(a: CapturedAnswer, b: CapturedAnswer): string[] {
  const out: string[] = [];
  if (a.status !== b.status) out.push(`status ${a.status} != ${b.status}`);
  if (a.body !== b.body) out.push('body bytes differ');
  const names = (h: string[]) => h.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  if (names(a.headers).join() !== names(b.headers).join())
    out.push(`header names: ${names(a.headers).join()} != ${names(b.headers).join()}`);
  for (let i = 0; i < Math.min(a.headers.length, b.headers.length); i += 2) {
    const name = a.headers[i]!.toLowerCase();
    const [va, vb] = [a.headers[i + 1]!, b.headers[i + 1]!];
    if (PER_REQUEST.has(name) ? va.length !== vb.length : va !== vb) out.push(`${name}: ${va} != ${vb}`);
  }
  return out;
}
