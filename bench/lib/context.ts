// What every scenario is given: the load, the rounds, where to start servers from, and where to say what went wrong.
import type { Load } from './load.ts';
import type { ServerProcess } from './servers.ts';

export interface BenchRun {
  quick: boolean;
  full: boolean;
  load: Load;
  /** Each side's warm-up before its first measured round. */
  warmUp: Load;
  rounds: number;
  /** A temporary directory for databases. */
  dir: string;
  /** Another built checkout measured beside this one (`--base DIR`, the A/B). */
  base?: string;
  /** Registers a started server, so that an unexpected exit is reported. */
  track: <T extends ServerProcess>(s: T) => T;
  /** What broke (the exit code is 1): a server died, answers differ. */
  broken: string[];
  /** Figures not to quote, and why. */
  sanity: string[];
  out: (text: string) => void;
}
