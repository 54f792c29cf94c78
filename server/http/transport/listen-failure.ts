// The one line every listening command prints when it cannot listen: which address, why, and how to fix it.
import { ListingsError } from '../../errors.ts';

/** `portOption` names where the port is chosen (`--port/PORT`), so the fix is one the reader can type. */
export function listenFailure(err: NodeJS.ErrnoException, host: string, port: number, portOption: string): Error {
  const reason =
    err.code === 'EADDRINUSE'
      ? `port ${port} on ${host} is already in use: stop the other server or choose another with ${portOption}`
      : err.code === 'EACCES'
        ? `not allowed to listen on port ${port}: choose a port above 1023 with ${portOption}`
        : err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND'
          ? `cannot listen on host ${host}: no such local address`
          : `cannot listen on ${host}:${port}: ${err.message}`;
  return new ListingsError('listen_failed', reason);
}
