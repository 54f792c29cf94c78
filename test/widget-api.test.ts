// The widget's published API (custom-elements.json, the .d.ts with its React and Vue parts, the attribute table of
// docs/widget.md) is what tools/widget-api.ts makes from the element now: after changing a property, its doc, an event
// or a type they show, run `npm run widget:api`.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { widgetApi } from '../tools/widget-api.ts';
import { DOCS, MANIFEST, TYPES } from '../tools/widget-api/source.ts';

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

describe('the widget API generated from the element', () => {
  let generated: Map<string, string>;
  beforeAll(async () => {
    generated = await widgetApi();
  });

  it.each([MANIFEST, TYPES, DOCS])('%s is what `npm run widget:api` makes now', (file) => {
    expect(generated.get(file), `${file} is stale: run npm run widget:api`).toBe(read(file));
  });

  it('documents every attribute and property, and types each', () => {
    const manifest = JSON.parse(generated.get(MANIFEST)!) as {
      modules: { declarations?: { name: string; attributes?: Described[]; members?: Described[] }[] }[];
    };
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.name === 'StorageListings');
    const described = [...(element?.attributes ?? []), ...(element?.members ?? [])];
    expect(element?.attributes?.length).toBeGreaterThan(10);
    for (const { name, description, type } of described) {
      expect(description, name).toBeTruthy();
      expect(type?.text, name).toBeTruthy();
    }
  });
});

describe("docs/widget.md's Translations", () => {
  it('names every key of `strings`, as the widget declares them', () => {
    const declared = /export interface Strings \{([\s\S]*?)\n\}/.exec(read('widget/src/i18n.ts'))![1]!;
    const keys = [...declared.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]);
    const paragraph = /\nKeys: ([\s\S]*?); `Intl` formats/.exec(read(DOCS))![1]!;
    const documented = [...paragraph.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(40);
    expect([...documented].sort()).toEqual([...keys].sort());
  });
});

interface Described {
  name: string;
  description?: string;
  type?: { text: string };
}
