// Last use from a serving node to PostgreSQL: times coalesced in memory, written in one statement, kept and retried on failure.
import type { Pool } from './connect.ts';
import { recordLastUsePg } from './keys.ts';
import { PendingWrites, type PendingWritesOptions } from './pending-writes.ts';

/** The later of two times per key. */
function mergeUses(into: Map<string, Date>, from: ReadonlyMap<string, Date>): void {
  for (const [id, at] of from) {
    const had = into.get(id);
    if (!had || had < at) into.set(id, at);
  }
}

export class PendingLastUse extends PendingWrites<Map<string, Date>, ReadonlyMap<string, Date>> {
  constructor(pool: Pool, options: PendingWritesOptions = {}) {
    super(
      () => new Map(),
      mergeUses,
      (batch) => recordLastUsePg(pool, batch),
      (batch) => batch.size,
      options,
    );
  }
}
