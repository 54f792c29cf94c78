// One measured round against one server: the load generator's figures plus the server's CPU time and peak RSS.
import type { BenchRequest, Figures, Generator, Load } from './load.ts';
import { cpuMs, generatorCpuMs, rssMb, waitedForCoreMs } from './proc.ts';
import type { ServerProcess } from './servers.ts';

export interface Round extends Figures {
  /** Server CPU (user + system) per answered request, in microseconds: steadier than req/s on a shared machine. */
  cpu_us_per_req: number;
  rss_mb: number;
  /** Share of a core the load generator used (this process and its children, e.g. wrk): near 1, it set the pace. */
  generator_busy: number;
  /** Share of the round other processes kept the server's event loop from its core (see waitedForCoreMs). */
  server_waited: number;
}

export async function measure(
  run: Generator,
  server: ServerProcess,
  requests: BenchRequest[],
  load: Load,
): Promise<Round> {
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(rssMb(server.pid)), 250);
  const cpu = cpuMs(server.pid);
  const generatorCpu = generatorCpuMs();
  const waited = waitedForCoreMs(server.pid);
  const began = performance.now();
  const figures = await run(server.url, requests, load);
  const used = cpuMs(server.pid) - cpu;
  const wall = performance.now() - began;
  const generatorBusy = (generatorCpuMs() - generatorCpu) / wall;
  const serverWaited = Math.max(0, (waitedForCoreMs(server.pid) - waited) / wall);
  clearInterval(sampler);
  rss.push(rssMb(server.pid));
  return {
    ...figures,
    cpu_us_per_req: Math.round((used * 1000 * 10) / figures.requests) / 10,
    rss_mb: Math.max(...rss.filter((x) => !Number.isNaN(x))),
    generator_busy: Math.round(generatorBusy * 100) / 100,
    server_waited: Math.round(serverWaited * 1000) / 1000,
  };
}
