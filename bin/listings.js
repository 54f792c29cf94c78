#!/usr/bin/env node
// The `listings` binary. It runs the compiled bundle (dist/server/listings.mjs, made by `npm run build`) while every
// source it was built from is unchanged, and the TypeScript sources through tsx's loader otherwise (no build step
// needed; a stale bundle is never run). LISTINGS_FROM_SOURCE=1 always runs the sources.
import { bundleIsCurrent } from './current-bundle.js';

if (process.env.LISTINGS_FROM_SOURCE !== '1' && bundleIsCurrent(new URL('../', import.meta.url))) {
  await import('../dist/server/listings.mjs');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/main.ts');
}
