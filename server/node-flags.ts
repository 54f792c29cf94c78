// The V8 flags the server runs with: the binary's shebang (a test keeps it equal), `serve --workers` and the bench.
export const SERVER_NODE_FLAGS: readonly string[] = [
  '--no-memory-reducer', // its idle-time compaction leaves Node's stream code slower for good (docs/performance.md)
];
