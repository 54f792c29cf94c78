// The Node (V8) flags the server runs with: bin/listings.js's shebang carries them, `serve --workers` passes them to
// each worker, and the bench starts every server it compares with them. A test keeps the shebang equal to this list.
//
// --no-memory-reducer: the reducer's mark-compact (when the heap seems idle, at the latest 100 s after the last full
// collection) left Node's own stream code slower for the rest of the process's life (docs/performance.md); it only hands
// back memory that a server under load takes again.
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];
