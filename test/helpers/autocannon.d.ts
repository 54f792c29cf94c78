// The small part of autocannon's programmatic API test/soak.slow.test.ts uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    requests?: { method?: string; path?: string; headers?: Record<string, string> }[];
  }

  interface Histogram {
    average: number;
    total: number;
    p50: number;
    p99: number;
  }

  interface Result {
    duration: number;
    requests: Histogram;
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
  }

  type Instance = EventEmitter & PromiseLike<Result> & { stop(): void };

  function autocannon(opts: Options): Instance;
  export default autocannon;
}
