// Reading standard input: its bytes as they came, and no more than a limit past which the import refuses anyway.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bytesOf, table } from './io.ts';

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

describe('table', () => {
  it('shows control characters escaped: a cell never clears the screen or adds a row', () => {
    const out = table([{ label: 'Evil\u001b[2J\nkey_fake  ok\u0007', ref: 'a' }], ['label', 'ref']);
    const lines = out.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('Evil\\u001b[2J\\u000akey_fake  ok\\u0007  a');
    expect(lines[0]!.indexOf('REF')).toBe(lines[1]!.lastIndexOf('a'));
  });
});
