// Reading standard input: its bytes as they came, and no more than a limit past which the import refuses anyway.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bytesOf } from './io.ts';

/** A stream of `count` chunks of 4 bytes that counts how many were pulled. */
function counted(count: number) {
  const pulled = { chunks: 0 };
  const stream = Readable.from(
    (function* () {
      for (let i = 0; i < count; i++) {
        pulled.chunks++;
        yield Buffer.from([i, i, i, 0xff]);
      }
    })(),
  );
  return { stream, pulled };
}

describe('bytesOf', () => {
  it('gives every byte as it came, invalid UTF-8 included', async () => {
    const { stream } = counted(3);
    expect([...(await bytesOf(stream, 100))]).toEqual([0, 0, 0, 0xff, 1, 1, 1, 0xff, 2, 2, 2, 0xff]);
  });

  it('stops reading once more than the limit has come', async () => {
    const { stream, pulled } = counted(1000);
    const bytes = await bytesOf(stream, 6);
    expect(bytes.length).toBe(8);
    expect(pulled.chunks).toBeLessThan(10);
  });
});
