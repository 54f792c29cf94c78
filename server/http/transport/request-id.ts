// X-Request-Id values: UUID-shaped, unique within a process by a counter, apart from other processes by a random prefix.
import { randomUUID } from 'node:crypto';

// 24 characters of one random UUID ("xxxxxxxx-xxxx-4xxx-yxxx-", 74 random bits) keep workers and restarts apart. A random
// UUID per request cost as much as the API's own work on a cached answer (node:crypto refills its entropy pool often).
const prefix = randomUUID().slice(0, 24);
/** The last two hex digits of the counter, made once. */
const LOW = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** The first 34 characters, shared by 256 ids in a row, and the counter's low byte. */
let high = '';
let block = 0;
let low = 256;

/** prefix + the counter as 12 hex digits; formatting the counter per id cost more than the rest of the id (README "Performance"). */
export function nextRequestId(): string {
  if (low === 256) {
    high = prefix + (block++).toString(16).padStart(10, '0');
    low = 0;
  }
  return high + LOW[low++]!;
}
