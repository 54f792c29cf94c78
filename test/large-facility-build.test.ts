// A large facility's first request does not hold other clients' answers: its views are built in steps over turns of
// the event loop while other facilities are answered at once, and the answers that come out are the ones a build in
// one go gives.
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { OFF_LOOP_BYTES } from '../server/app.ts';
import { listingIdOf } from '../server/domain/facility.ts';
import { BUILD_STEP } from '../server/http/views/facility-views.ts';
import type { Answer } from '../server/http/transport/answer.ts';
import { markedFacility } from './helpers/data.ts';
import { issueKey } from './helpers/fixture.ts';
import { handlerOver, inject } from './helpers/inject.ts';
import { useDemoDb } from './helpers/setup.ts';

const keys: Record<string, string> = {};
const demo = useDemoDb({
  data: {
    facilities: [markedFacility('big', 'QXBIG', 4 * BUILD_STEP).json, markedFacility('small', 'QXSMALL', 5).json],
  } as never,
  prepare: (db) => {
    for (const id of ['big', 'small']) keys[id] = issueKey(db, id).key;
  },
});

const request = (facility: string, path = '', headers: Record<string, string> = {}) => ({
  method: 'GET',
  url: `/external/listings${path}`,
  headers: { 'x-api-key': keys[facility]!, ...headers },
  remoteAddress: '127.0.0.1',
});

it("answers other facilities at once while a large one's first request waits for its build, which is made once", async () => {
  const handler = handlerOver(demo.file, { offLoopBytes: OFF_LOOP_BYTES });
  const inOneGo = handlerOver(demo.file);
  try {
    const first = handler.answer(request('big', '', { 'accept-encoding': 'gzip' }));
    expect(first.later).toBeInstanceOf(Promise);
    // Meanwhile: a listing of the same facility waits for the same build; another facility is answered in line.
    const detail = handler.answer(request('big', `/${listingIdOf('big', 'QXBIG-7')}`));
    expect(detail.later).toBeInstanceOf(Promise);
    const small = handler.answer(request('small'));
    expect(small.later).toBeUndefined();
    expect(small.status).toBe(200);
    expect(JSON.parse(String(small.body)).listings).toHaveLength(5);
    const [list, one] = (await Promise.all([first.later, detail.later])) as [Answer, Answer];
    expect(handler.views.builds).toBe(2);

    // The same answers as a build in one go: bytes, ETag and headers.
    const expected = await inject(inOneGo, { url: '/external/listings', headers: { 'x-api-key': keys.big! } });
    expect(list.status).toBe(200);
    expect(list.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(list.body as Buffer).equals(expected.body)).toBe(true);
    expect(list.headers.etag).toBe(expected.headers.etag!.replace(/"$/, '-gz"'));
    expect(JSON.parse(expected.body.toString()).listings).toHaveLength(4 * BUILD_STEP);
    const expectedDetail = await inject(inOneGo, {
      url: `/external/listings/${listingIdOf('big', 'QXBIG-7')}`,
      headers: { 'x-api-key': keys.big! },
    });
    expect(one.status).toBe(200);
    expect(Buffer.from(one.body as Buffer).equals(expectedDetail.body)).toBe(true);
    // Built: answered in line from now on.
    expect(handler.answer(request('big')).later).toBeUndefined();
  } finally {
    handler.close();
    inOneGo.close();
  }
});
