// X-Request-Id values: UUID-shaped, unique within a process by a counter, apart from other processes by a random prefix.
import { randomUUID } from 'node:crypto';

// 24 characters of one random UUID ("xxxxxxxx-xxxx-4xxx-yxxx-", 74 random bits) keep workers and restarts apart. A random
// UUID per request costs as much as the API's own work on a cached answer (node:crypto refills its entropy pool often).
const prefix = randomUUID().slice(0, 24);
/** The last two hex digits of the counter, made once. */
const LOW = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const LENGTH = 36;
/** The 256 ids of the current block (the counter's high digits) side by side, in one flat string. */
let block = '';
let high = 0;
let low = 256;

/**
 * prefix + the counter as 12 hex digits, formatted once per 256 ids. Each id is a slice of its block's string: a
 * concatenation per id would be a V8 cons string, which node:http's header check would flatten once per request.
 */
export function nextRequestId(): string {
  if (low === 256) {
    const head = prefix + (high++).toString(16).padStart(10, '0');
    block = LOW.map((l) => head + l).join('');
    low = 0;
  }
  return block.slice(low * LENGTH, ++low * LENGTH);
}
