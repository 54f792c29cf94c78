// X-Request-Id values: UUID-shaped, unique within a process by a counter, apart from other processes by a random prefix.
import { randomUUID } from 'node:crypto';

// 24 characters of one random UUID ("xxxxxxxx-xxxx-4xxx-yxxx-", 74 random bits) keep workers and restarts apart. A random
// UUID per request cost as much as the API's own work on a cached answer (node:crypto refills its entropy pool often).
const prefix = randomUUID().slice(0, 24);
let counter = 0;

export function nextRequestId(): string {
  return prefix + (counter++).toString(16).padStart(12, '0');
}
