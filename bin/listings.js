#!/usr/bin/env node
// The `listings` binary: the CLI and server compiled into dist/server/listings.mjs by `npm run build` (which
// `npm install` and `npm start` run). One way to run, on plain Node: no TypeScript loader in production.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/server/listings.mjs', import.meta.url);
if (!existsSync(bundle)) {
  process.stderr.write('error: listings is not built (dist/server/listings.mjs is missing): run npm run build\n');
  process.exit(1);
}
await import(bundle.href);
