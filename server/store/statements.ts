// Prepares each statement once per database connection, on first use.
import type { Db } from './db.ts';

export function statementsFor<T>(prepare: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let s = cache.get(db);
    if (!s) {
      s = prepare(db);
      cache.set(db, s);
    }
    return s;
  };
}
