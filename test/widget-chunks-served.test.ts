// The widget's chunks (its core and those loaded on demand) are served beside its module, by the API server (/widget/chunks/) and by the panel for
// its Embed preview (/assets/chunks/): JavaScript, for any origin, and kept a year since their names hold their hash.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { panelAssets } from '../server/panel/assets.ts';
import { chunksIn } from '../tools/browser-bundle.ts';
import { inject } from './helpers/inject.ts';
import { useDemoHandler } from './helpers/setup.ts';

const CHUNKS = chunksIn(fileURLToPath(new URL('../dist/widget/', import.meta.url)));
const demo = useDemoHandler();

describe('the widget chunks', () => {
  it('are built: the core the module imports, the details dialog, the facility header and the JSON-LD', () => {
    expect(CHUNKS).toHaveLength(4);
  });

  it('come from the API server as JavaScript for any origin, kept a year; the module itself is revalidated', async () => {
    const entry = await inject(demo.handler, { method: 'GET', url: '/widget/storage-listings.js' });
    expect(entry.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    for (const chunk of CHUNKS) {
      const r = await inject(demo.handler, { method: 'GET', url: `/widget/${chunk}` });
      expect(r.status, chunk).toBe(200);
      expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.headers['cross-origin-resource-policy']).toBe('cross-origin');
    }
    const missing = await inject(demo.handler, { method: 'GET', url: '/widget/chunks/nope-00000000.js' });
    expect(missing.status).toBe(404);
  });

  it('come from the panel beside its copy of the module', () => {
    const assets = panelAssets();
    const get = (path: string) => assets(path, { method: 'GET', headers: {} } as Parameters<typeof assets>[1]);
    for (const chunk of CHUNKS) {
      const r = get(`/assets/${chunk}`);
      expect(r?.status, chunk).toBe(200);
      expect(r?.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(r?.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect(get('/assets/storage-listings.js')?.headers['cache-control']).toBe('no-cache');
    expect(get('/assets/chunks/nope-00000000.js')).toBeUndefined();
  });
});
