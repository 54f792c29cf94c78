// The commands /docs shows, pasted into bash as a partner would, with a key of a facility other than the one the
// document's examples come from: the list answers that facility's list, and the detail command one of its listings.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKeyedServer } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';

const UNESCAPES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The text of each `<code class="sample">` of the page, as a visitor copies it before typing a key. */
function samplesOf(page: string): string[] {
  return [...page.matchAll(/<code class="sample">([\s\S]*?)<\/code>/g)].map((m) =>
    m[1]!.replace(/<[^>]+>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (e) => UNESCAPES[e]!),
  );
}

describe('the commands of /docs, pasted into bash with a key of another facility', () => {
  let server: Awaited<ReturnType<typeof startKeyedServer>>;
  let samples: string[];
  let firstId: string;

  beforeAll(async () => {
    server = await startKeyedServer('ber-1');
    samples = samplesOf((await call(server.url, '/docs')).text);
    const list = json(await call(server.url, '/external/listings', { key: server.key }));
    expect(list.facility.id).toBe('ber-1');
    firstId = list.listings[0].id;
  });
  afterAll(async () => {
    await server.close();
  });

  /** What bash prints for a sample, its key in LISTINGS_KEY (not spawnSync: this process serves the requests). */
  async function pasted(sample: string): Promise<unknown> {
    const { stdout } = await promisify(execFile)('bash', ['-c', sample], {
      env: { ...process.env, LISTINGS_KEY: server.key },
      timeout: 30_000,
    });
    return JSON.parse(stdout);
  }

  it('shows a list command and a detail command', () => {
    expect(samples).toHaveLength(2);
  });

  it("the list command answers the key's facility", async () => {
    expect(await pasted(samples[0]!)).toMatchObject({ facility: { id: 'ber-1' } });
  });

  it("the detail command answers a listing of the key's own list, whatever the facility", async () => {
    expect(await pasted(samples[1]!)).toMatchObject({ id: firstId });
  });
});
