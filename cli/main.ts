// Entry point of the `listings` binary.
import cluster from 'node:cluster';
import { processIo } from './io.ts';
import { runCli } from './program.ts';

// serve and demo resolve only when the server has shut down.
const code = await runCli(process.argv.slice(2), processIo());
// A cluster worker's IPC channel would keep it alive after its server stopped.
if (cluster.isWorker) process.exit(code);
process.exitCode = code;
