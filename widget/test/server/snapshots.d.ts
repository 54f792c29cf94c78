// Types of snapshots.js, for test/widget-fixtures.test.ts, which checks the files against the contract.
/** The bytes (or the status) served at `path`; undefined: 404. */
export declare function snapshotFile(origin: string, path: string): Buffer | number | undefined;
export declare function cacheControlOf(path: string): string;
