// Entry point of the `listings` binary.
import cluster from 'node:cluster';
import { processIo } from './io.ts';
import { runCli } from './program.ts';

// A reader that stopped reading (`listings keys list | head -1`) ends the command quietly, as a closed pipe ends
// other command-line tools, instead of with a stack trace for an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(process.exitCode ?? 0);
  });

// serve and demo resolve only when the server has shut down.
const code = await runCli(process.argv.slice(2), processIo());
// A cluster worker's IPC channel would keep it alive after its server stopped.
if (cluster.isWorker) process.exit(code);
process.exitCode = code;
