// The import form's parser: one file and its token taken in within caps set before the first byte, 413 past a cap,
// 400 for anything but a well-formed form with one file, and no temporary file left behind however it ends.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_IMPORT_BYTES } from '../server/domain/import.ts';
import type { Upload } from '../server/panel/http.ts';
import type { RunningPanel } from '../server/panel/server.ts';
import { receiveUpload, UPLOAD_LIMITS } from '../server/panel/upload.ts';
import type { Store } from '../server/store/store.ts';
import { demoJson } from './helpers/fixture.ts';
import { OPERATOR, PASSWORD } from './helpers/panel.ts';
import { panelSocketEachTest, postLogin } from './helpers/panel-socket.ts';
import { until } from './helpers/wait.ts';

const B = 'upload-boundary';
const TYPE = `multipart/form-data; boundary=${B}`;
const field = (name: string, value: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, filename: string, content: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
  `Content-Type: application/json\r\n\r\n${content}\r\n`;
const form = (...parts: string[]) => Buffer.from(parts.join('') + `--${B}--\r\n`);

/** Each test's own TMPDIR, so that what is left in it is this test's alone. */
let uploads: string;
let savedTmp: string | undefined;
beforeEach(() => {
  savedTmp = process.env.TMPDIR;
  uploads = mkdtempSync(join(tmpdir(), 'listings-upload-test-'));
  process.env.TMPDIR = uploads;
});
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  rmSync(uploads, { recursive: true, force: true });
});

/** The temporary files of uploads still there. */
const leftOver = () => readdirSync(uploads).filter((name) => name.startsWith('listings-upload-'));

const receive = (body: Buffer | Readable, type = TYPE, limits = UPLOAD_LIMITS) =>
  receiveUpload(Buffer.isBuffer(body) ? Readable.from([body]) : body, type, limits);

describe('the parser', () => {
  it('takes the token into memory and the file into a temporary file, removed once the upload is done with', async () => {
    const got = (await receive(form(field('csrf', 'tok'), filePart('file', 'Łódź.json', '{"a":1}')))) as Upload;
    expect([...got.fields]).toEqual([['csrf', 'tok']]);
    expect(got.file).toMatchObject({ field: 'file', filename: 'Łódź.json' });
    expect(readFileSync(got.file!.path, 'utf8')).toBe('{"a":1}');
    expect(leftOver()).toHaveLength(1);
    await got.remove();
    expect(leftOver()).toEqual([]);
  });

  it('answers 413 to a file or a field past its cap', async () => {
    const small = { ...UPLOAD_LIMITS, fileSize: 10 };
    const cases: [Buffer, typeof UPLOAD_LIMITS][] = [
      [form(field('csrf', 't'), filePart('file', 'a.json', 'x'.repeat(11))), small],
      [form(field('csrf', 'x'.repeat(UPLOAD_LIMITS.fieldSize + 1)), filePart('file', 'a.json', '{}')), UPLOAD_LIMITS],
    ];
    for (const [body, limits] of cases) {
      const got = await receive(body, TYPE, limits);
      expect('refusal' in got && got.refusal.status).toBe(413);
      expect(leftOver()).toEqual([]);
    }
  });

  it('takes a file of exactly MAX_IMPORT_BYTES, as `listings import` does, and refuses one byte more', async () => {
    const ONE_MB = Buffer.alloc(1024 * 1024, 0x20);
    const upload = (size: number) =>
      Readable.from(
        (function* () {
          yield Buffer.from(field('csrf', 't') + filePart('file', 'a.json', '').slice(0, -2));
          for (let left = size; left > 0; left -= ONE_MB.length)
            yield ONE_MB.subarray(0, Math.min(left, ONE_MB.length));
          yield Buffer.from(`\r\n--${B}--\r\n`);
        })(),
      );
    const exact = await receive(upload(MAX_IMPORT_BYTES));
    expect('refusal' in exact && exact.refusal.status).toBe(false);
    expect(statSync((exact as Upload).file!.path).size).toBe(MAX_IMPORT_BYTES);
    await (exact as Upload).remove();
    const over = await receive(upload(MAX_IMPORT_BYTES + 1));
    expect('refusal' in over && over.refusal.status).toBe(413);
    expect(leftOver()).toEqual([]);
  });

  it('answers 400 to a second file, too many fields, broken framing or no boundary', async () => {
    const file = filePart('file', 'a.json', '{}');
    const cases: [Buffer, string][] = [
      [form(field('csrf', 't'), file, filePart('other', 'b.json', '{}')), TYPE],
      [form(...['a', 'b', 'c', 'd', 'e'].map((n) => field(n, 'v')), file), TYPE],
      [
        Buffer.from(
          `${field('csrf', 't')}--${B}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n{`,
        ),
        TYPE,
      ],
      [Buffer.from('not a form at all'), TYPE],
      [form(field('csrf', 't'), file), 'multipart/form-data'],
      [form(field('csrf', 't'), file), 'application/json'],
    ];
    for (const [body, type] of cases) {
      const got = await receive(body, type);
      expect([type, 'refusal' in got && got.refusal.status]).toEqual([type, 400]);
      expect(leftOver()).toEqual([]);
    }
  });

  it('throws the error of a body cut off part way, its file removed', async () => {
    const cut = new Error('cut off');
    const body = Readable.from(
      (async function* () {
        yield Buffer.from(field('csrf', 't') + filePart('file', 'a.json', '{"a":').slice(0, -2));
        throw cut;
      })(),
    );
    await expect(receive(body)).rejects.toBe(cut);
    expect(leftOver()).toEqual([]);
  });
});

describe('an upload over a socket', () => {
  let store: Store;
  let panel: RunningPanel;
  const startPanelSocket = panelSocketEachTest();
  beforeEach(async () => {
    ({ panel, store } = await startPanelSocket({ publicUrl: 'http://x' }));
  });

  async function session(): Promise<{ cookie: string; csrf: string }> {
    const login = await postLogin(panel.url, { email: OPERATOR, password: PASSWORD });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const page = await (await fetch(`${panel.url}/import`, { headers: { cookie } })).text();
    return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page)![1]! };
  }

  const post = (cookie: string, body: Buffer, type = TYPE) =>
    fetch(`${panel.url}/import`, {
      method: 'POST',
      headers: { cookie, origin: panel.url, 'content-type': type },
      body: new Uint8Array(body),
    });

  it('imports a well-formed one, and answers a broken one 400 with its connection closed, nothing applied', async () => {
    const { cookie, csrf } = await session();
    const data = demoJson();
    data.facilities[0].name = 'Through Busboy';
    const broken = await post(cookie, form(field('csrf', csrf), filePart('file', 'a.json', '{}')).subarray(0, -8));
    expect(broken.status).toBe(400);
    expect(broken.headers.get('connection')).toBe('close');
    expect((await store.facilityHead(data.facilities[0].id))?.name).not.toBe('Through Busboy');
    const twoFiles = form(field('csrf', csrf), filePart('file', 'a.json', '{}'), filePart('more', 'b.json', '{}'));
    expect((await post(cookie, twoFiles)).status).toBe(400);
    const done = await post(cookie, form(field('csrf', csrf), filePart('file', 'data.json', JSON.stringify(data))));
    expect(done.status).toBe(200);
    expect((await store.facilityHead(data.facilities[0].id))?.name).toBe('Through Busboy');
    expect(leftOver()).toEqual([]);
  });

  /** An upload whose body is sent as the test pushes it: a first part of a form with a file of `json` and more. */
  async function streamed(json: string) {
    const { cookie, csrf } = await session();
    const abort = new AbortController();
    let push!: ReadableStreamDefaultController<Uint8Array>;
    const answer = fetch(`${panel.url}/import`, {
      method: 'POST',
      headers: { cookie, origin: panel.url, 'content-type': TYPE },
      body: new ReadableStream<Uint8Array>({ start: (c) => void (push = c) }),
      duplex: 'half',
      signal: abort.signal,
    } as RequestInit);
    push.enqueue(Buffer.from(field('csrf', csrf) + filePart('file', 'data.json', json).slice(0, -2)));
    const onDisk = () => {
      const [dir] = leftOver();
      const file = dir === undefined ? '' : join(uploads, dir, 'file');
      return file !== '' && existsSync(file) ? statSync(file).size : 0;
    };
    await until('the first part in the temporary file', () => onDisk() >= 512 * 1024);
    return { push, answer, abort };
  }

  // Trailing whitespace is valid JSON: a file of over 1 MB, sent in two halves.
  const HALF = ' '.repeat(512 * 1024);

  it('writes the file as it comes in, before the body has ended', async () => {
    const data = demoJson();
    data.facilities[0].name = 'Streamed';
    const { push, answer } = await streamed(JSON.stringify(data) + HALF);
    push.enqueue(Buffer.from(`${HALF}\r\n--${B}--\r\n`));
    push.close();
    expect((await answer).status).toBe(200);
    expect((await store.facilityHead(data.facilities[0].id))?.name).toBe('Streamed');
    expect(leftOver()).toEqual([]);
  });

  it('removes the file of an upload its client gives up on part way, and applies nothing', async () => {
    const data = demoJson();
    data.facilities[0].name = 'Given Up';
    const { answer, abort } = await streamed(JSON.stringify(data) + HALF);
    abort.abort();
    await expect(answer).rejects.toThrow();
    await until('the temporary file removed', () => leftOver().length === 0);
    expect((await store.facilityHead(data.facilities[0].id))?.name).not.toBe('Given Up');
    expect((await fetch(`${panel.url}/login`)).status).toBe(200);
  });

  it('refuses a file without the form token, and a form without a file', async () => {
    const { cookie, csrf } = await session();
    expect((await post(cookie, form(field('csrf', 'forged'), filePart('file', 'a.json', '{}')))).status).toBe(403);
    expect((await post(cookie, form(field('csrf', csrf)))).status).toBe(400);
    expect(leftOver()).toEqual([]);
  });
});
