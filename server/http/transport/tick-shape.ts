// One of Node's tick records kept alive, so that V8 keeps the shape they all share (docs/performance.md).
import { executionAsyncResource } from 'node:async_hooks';

let kept: object | undefined;

/** A full GC with no tick pending drops the tick records' maps, and `process.nextTick` then defines every record's four
 * properties in V8's runtime (~200 ns a tick, not ~25): one live record keeps the maps. */
export function keepTickShape(): void {
  if (kept === undefined) process.nextTick(() => (kept ??= executionAsyncResource()));
}
