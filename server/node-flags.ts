// The Node (V8) flags the server runs with: bin/listings.js's shebang carries them, `serve --workers` passes them to
// each worker, and the bench starts every server it compares with them. A test keeps the shebang equal to this list.
//
// --no-memory-reducer: V8's memory reducer runs a memory-reducing mark-compact when the heap has seemed idle, and at
// the latest 100 s after the last full collection. In this server that collection left Node's own stream code
// (process.nextTick's tick objects, built through the runtime with map migrations) slower for the rest of the
// process's life: 2 µs more CPU per request, 15 % of the whole (README "Performance"). A plain full collection does
// not do that, and the reducer only hands memory back that a server under load takes again.
export const SERVER_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];
