// A key's ref by one rule in the CLI and the panel: surrounding spaces trimmed, as a label's are, and anything else
// refused with the same message by both.
import { describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/fixture.ts';
import { usePanel } from './helpers/panel.ts';
import { recordKeysIn } from './helpers/capture.ts';

const panel = usePanel();

describe('a ref with surrounding spaces', () => {
  it('is trimmed by the CLI and by the panel alike', async () => {
    const made = await cliInProcess(panel.file, ['keys', 'create', '--facility', 'wro-1', '--ref', ' abc ', '--json']);
    recordKeysIn(made.stdout);
    expect(made.code).toBe(0);
    const s = await panel.client.session();
    const form = await s.as('POST', '/facilities/ber-1/keys', { label: 'x', ref: ' abc ' });
    expect(form.status).toBe(303);
    recordKeysIn(String((await s.as('GET', form.headers.location!)).body));
    expect((await panel.store.listKeys()).map((k) => [k.facility_id, k.ref])).toEqual([
      ['wro-1', 'abc'],
      ['ber-1', 'abc'],
    ]);
  });

  it('with a space inside is refused by both with the same message, nothing made', async () => {
    const cli = await cliInProcess(panel.file, ['keys', 'create', '--facility', 'wro-1', '--ref', ' a b ']);
    expect(cli.code).toBe(2);
    const message = /is invalid\. (.*)$/m.exec(cli.stderr)![1]!;
    const s = await panel.client.session();
    const form = await s.as('POST', '/facilities/wro-1/keys', { label: 'x', ref: ' a b ' });
    expect(form.status).toBe(400);
    const escaped = message.replaceAll('"', '&quot;');
    expect(String(form.body)).toContain(escaped);
    expect(await panel.store.listKeys()).toEqual([]);
  });
});
