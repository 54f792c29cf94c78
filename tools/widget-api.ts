// The widget's published API, made from the one place it is declared: the element's property table, its JSDoc and its
// event map (widget/src/). custom-elements.json comes from @custom-elements-manifest/analyzer (widget-api/manifest.ts);
// the .d.ts (with its React and Vue parts) and the attribute table of docs/widget.md are written from that manifest.
// `npm run widget:api` writes them all; test/widget-api.test.ts fails when one differs from what this makes now.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import type ts from 'typescript';
import { attributeTable, withAttributeTable } from './widget-api/docs.ts';
import { typesOf } from './widget-api/dts.ts';
import { ElementTypes } from './widget-api/element-types.ts';
import { manifestOf } from './widget-api/manifest.ts';
import { CLASS, DOCS, MANIFEST, path, TYPES } from './widget-api/source.ts';

/** Every generated file, by its path in the repository, as the generator makes it now. */
export async function widgetApi(): Promise<Map<string, string>> {
  const types = new ElementTypes();
  // The listings the element shows (its `listings` state) are the type its events carry: named once, first.
  const [listing] = types.checker.getTypeArguments(types.typeOf(types.element, 'listings') as ts.TypeReference);
  const doc = "A listing as the widget shows it and puts in its events: the API's `Summary`.";
  if (listing) types.name(listing, `${CLASS}Listing`, doc);
  const { manifest, element } = await manifestOf(types);
  const dts = await prettier.format(typesOf(types, element), {
    ...(await prettier.resolveConfig(path(TYPES))),
    filepath: path(TYPES),
  });
  return new Map([
    [MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`],
    [TYPES, dts],
    [DOCS, withAttributeTable(readFileSync(path(DOCS), 'utf8'), attributeTable(element))],
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, text] of await widgetApi()) {
    writeFileSync(path(file), text);
    process.stdout.write(`widget:api: wrote ${file}\n`);
  }
}
