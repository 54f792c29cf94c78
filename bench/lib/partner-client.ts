// The bench's side of the partner's process (partner.ts): one child per abuse target, one run per message.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { BenchRequest } from './load.ts';
import type { OpenLoopResult } from './open-loop.ts';
import type { PartnerReply, PartnerRun } from './partner.ts';
import { BENCH_DIST } from './servers.ts';

export interface Partner {
  /** `rate` requests per second for `seconds` from `start` in the rotation; due times in this process's clock. */
  run(rate: number, seconds: number, start?: number): Promise<OpenLoopResult>;
  stop(): void;
}

export function startPartner(url: string, requests: readonly BenchRequest[]): Partner {
  const child = fork(join(BENCH_DIST, 'partner.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    run: (rate, seconds, start = 0) =>
      new Promise((resolve, reject) => {
        const exited = (code: number | null) => reject(new Error(`the partner's process exited with ${code}`));
        child.once('exit', exited);
        child.once('message', (reply: PartnerReply) => {
          child.off('exit', exited);
          resolve({ ...reply, due: reply.due.map((t) => t - performance.timeOrigin) });
        });
        const run: PartnerRun = { url, requests, rate, seconds, start };
        child.send(run);
      }),
    stop: () => {
      if (child.connected) child.disconnect();
    },
  };
}
