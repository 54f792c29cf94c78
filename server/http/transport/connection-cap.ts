// Connections per client address, for both servers: one client cannot take the slots every other client needs.
import type { Server, Socket } from 'node:net';
import { addressGroupOf } from '../../domain/address-group.ts';
import type { TrustedProxies } from './client-address.ts';

/**
 * Connections from one address (an IPv6 /64) beyond `perAddress` are closed as they open, unless the address is a
 * trusted proxy, whose connections carry everybody's. Counted as they open and close, in a map that holds only the
 * addresses with a connection open, so it is bounded by the server's own connection cap.
 */
export function capPerAddress(server: Server, perAddress: number, trusted: TrustedProxies): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    if (trusted(peer, 0)) return;
    const group = addressGroupOf(peer);
    const count = (open.get(group) ?? 0) + 1;
    if (count > perAddress) {
      socket.destroy();
      return;
    }
    open.set(group, count);
    socket.once('close', () => {
      const left = open.get(group)! - 1;
      if (left === 0) open.delete(group);
      else open.set(group, left);
    });
  });
}
