// Entry point of the `listings` binary.
import { processIo } from './io.ts';
import { runCli } from './program.ts';

const code = await runCli(process.argv.slice(2), processIo());
// serve and demo resolve only when the server has shut down.
process.exitCode = code;
