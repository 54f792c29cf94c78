// The request log holds no key, nor most of one, however a client writes it into the URL: percent-encoded in part or
// whole, one character short, without its prefix, in the query, under the default prefix and a custom one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../server/logger.ts';
import type { Handler } from '../server/http/handler.ts';
import { recordLog } from './helpers/capture.ts';
import { demoDb, issueKey, tempDir } from './helpers/fixture.ts';
import { handlerOver, inject } from './helpers/inject.ts';

/** `text` with the character at `at` percent-encoded (upper- or lower-case hex). */
const encodedAt = (text: string, at: number, lower = false) => {
  const hex = text.charCodeAt(at).toString(16).padStart(2, '0');
  return `${text.slice(0, at)}%${lower ? hex : hex.toUpperCase()}${text.slice(at + 1)}`;
};
const encodedWhole = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`).join('');

/** Every way of writing a key (or most of it) that a log must not give away. */
function spellings(key: string): [string, string][] {
  const secretAt = key.indexOf('_live_') + '_live_'.length;
  const secret = key.slice(secretAt);
  return [
    ['the key', key],
    ['one character of the secret percent-encoded', encodedAt(key, secretAt + 7)],
    ['the last character percent-encoded in lower-case hex', encodedAt(key, key.length - 1, true)],
    ['an underscore of the prefix percent-encoded', encodedAt(key, secretAt - 1)],
    ['every character percent-encoded', encodedWhole(key)],
    ['one character percent-encoded twice', encodedAt(key, secretAt + 11).replace('%', '%25')],
    ['one character short', key.slice(0, -1)],
    ['without its first secret character', key.slice(0, secretAt) + secret.slice(1)],
    ['the secret alone', secret],
    ['the secret alone, one character short', secret.slice(0, -1)],
    ['the secret alone, one character percent-encoded', encodedAt(secret, 16)],
  ];
}

/** Where a client may put it. */
const PLACES: [string, (k: string) => string][] = [
  ['a listing id', (k) => `/external/listings/${k}`],
  ['a rental page code', (k) => `/rent/wro-1/${k}`],
  ['a facility id', (k) => `/rent/${k}/M-07`],
  ['the first segment', (k) => `/${k}`],
  ['the query', (k) => `/external/listings?api_key=${k}`],
  ['a rental page query', (k) => `/rent/wro-1/M-07?k=${k}`],
];

/** The text with every percent-escape decoded, as often as it takes: what a reader of the log could recover. */
function decodedFully(text: string): string {
  let out = text;
  for (let before = ''; before !== out;) {
    before = out;
    out = out.replace(/%([0-9A-Fa-f]{2})/g, (_e, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return out;
}

/** The 12-character pieces of the secret that appear in the text: none, when the log keeps no useful part of it. */
function piecesIn(secret: string, text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 12 <= secret.length; i++)
    if (text.includes(secret.slice(i, i + 12))) found.push(secret.slice(i, i + 12));
  return found;
}

describe.each(['svc', 'acme'])('under the key prefix "%s"', (prefix) => {
  let cleanup: () => void;
  let handler: Handler;
  let key: string;
  const lines: string[] = [];
  const { logger } = createLogger({
    write: (text) => {
      recordLog(text);
      lines.push(...text.trimEnd().split('\n'));
    },
  });
  beforeAll(() => {
    const temp = tempDir();
    cleanup = temp.cleanup;
    const { db, file } = demoDb(temp.dir);
    key = issueKey(db, 'wro-1', { prefix }).key;
    db.close();
    handler = handlerOver(file, { keyPrefix: prefix, logger });
  });
  afterAll(() => {
    handler?.close();
    cleanup?.();
  });

  /** The path the log line of one request to `url` holds. */
  const loggedPath = async (url: string, headers: Record<string, string> = {}): Promise<string> => {
    lines.length = 0;
    await inject(handler, { url, headers });
    expect(lines).toHaveLength(1);
    return (JSON.parse(lines[0]!) as { path: string }).path;
  };

  it.each(PLACES)('keeps every spelling of a key in %s out of the log line', async (_place, url) => {
    const secret = key.slice(-32);
    for (const [spelling, text] of spellings(key)) {
      const path = await loggedPath(url(text));
      expect(piecesIn(secret, decodedFully(path)), `${spelling}: ${path}`).toEqual([]);
    }
  });

  it('keeps a key in a path out of the log even when the request also sends it as its key', async () => {
    const path = await loggedPath(`/external/listings/${encodedAt(key, 20)}`, { 'x-api-key': key });
    expect(piecesIn(key.slice(-32), decodedFully(path))).toEqual([]);
  });

  it('logs the paths of ordinary requests as they are', async () => {
    for (const path of ['/external/listings', '/external/listings/lst_0123456789abcdef0123', '/rent/wro-1/M-07'])
      expect(await loggedPath(path)).toBe(path);
    expect(await loggedPath('/external/listings?sort=price')).toBe('/external/listings');
  });
});
