// The abuse scenario's well-behaved partner, a process of its own (on the load core) that the bench commands over IPC.
// The bench's own process holds the field mix's captures by the time abuse is measured: its garbage collections would
// pause the partner's client and count in the partner's latencies as time ours never spent. One long-lived child keeps
// its connections across
// rounds, as a partner's back end does. Compiled to dist/bench/partner.mjs with the bench's servers.
import { Agent } from 'node:http';
import type { BenchRequest } from './load.ts';
import { openLoop, type OpenLoopResult } from './open-loop.ts';

export interface PartnerRun {
  url: string;
  requests: readonly BenchRequest[];
  rate: number;
  seconds: number;
  start: number;
}

/** One run's result, its due times as epoch milliseconds (performance.timeOrigin + now): one clock for both processes. */
export type PartnerReply = OpenLoopResult;

// Idle sockets dropped before the server's 5 s: Node 20's Agent ignores the Keep-Alive hint without a timeout of its own.
const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 });
process.on('message', (run: PartnerRun) => {
  void openLoop(run.url, run.requests, run.rate, run.seconds, agent, run.start).then((result) => {
    const reply: PartnerReply = { ...result, due: result.due.map((t) => t + performance.timeOrigin) };
    process.send!(reply);
  });
});
process.on('disconnect', () => agent.destroy());
