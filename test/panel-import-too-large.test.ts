// An import file over the limit, refused by the panel as `listings import` refuses it: the Import page, 413, with the
// CLI's message (the limit, nothing changed), whether the size is declared in the head or found while streaming.
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { importTooLarge } from '../server/domain/import.ts';
import { UPLOAD_BYTES } from '../server/panel/admission.ts';
import type { RunningPanel } from '../server/panel/server.ts';
import { receiveUpload, UPLOAD_LIMITS } from '../server/panel/upload.ts';
import { plain } from '../server/panel/http.ts';
import type { Store } from '../server/store/store.ts';
import { OPERATOR, PASSWORD } from './helpers/panel.ts';
import { panelSocketEachTest, postLogin } from './helpers/panel-socket.ts';
import { sendBody } from './helpers/raw-body.ts';

let store: Store;
let panel: RunningPanel;

const startPanelSocket = panelSocketEachTest();
beforeEach(async () => {
  ({ panel, store } = await startPanelSocket());
});

const escaped = (text: string) => text.replaceAll('"', '&quot;');

describe('an import file over the limit', () => {
  it('declared in the head: the Import page, 413, with the CLI message, before the body is read', async () => {
    const login = await postLogin(panel.url, { email: OPERATOR, password: PASSWORD });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const port = Number(new URL(panel.url).port);
    const over = UPLOAD_BYTES + 1;
    const head =
      `POST /import HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\norigin: ${panel.url}\r\ncookie: ${cookie}\r\n` +
      `content-type: multipart/form-data; boundary=x\r\ncontent-length: ${over}\r\n\r\n`;
    const sent = await sendBody(port, head, over, { answerFirst: true });
    expect(sent.reply?.status).toBe(413);
    expect(sent.reply?.headers['content-type']?.[0]).toMatch(/^text\/html/);
    const body = String(sent.reply?.body);
    expect(body).toContain(escaped(importTooLarge('upload').message));
    expect(body).toContain('action="/import"');
    expect((await store.listAudit({ action: 'import' })).length).toBe(0);
  });

  it("found while streaming: the answer made for the file's name", async () => {
    const boundary = 'x';
    const body = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="huge.json"\r\n\r\n${'x'.repeat(11)}\r\n--${boundary}--\r\n`,
    );
    const got = await receiveUpload(
      Readable.from([body]),
      `multipart/form-data; boundary=${boundary}`,
      { ...UPLOAD_LIMITS, fileSize: 10 },
      (name) => plain(413, `page for ${name}`),
    );
    expect('refusal' in got && [got.refusal.status, String(got.refusal.body)]).toEqual([413, 'page for huge.json']);
  });
});
