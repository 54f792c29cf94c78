// The one-key scenarios measured: each on several fresh sets of processes (ours, its ceiling, the peer), the rounds of
// every set pooled into one entry per scenario (scenarios.ts, entryOf), and printed per generator.
import { startCeiling, type Ceiling, type Replayed } from './ceilings.ts';
import type { Generator, Load } from './load.ts';
import { entrySanity } from './sanity.ts';
import { entryOf, measureScenario, scenarioTables, scenariosFor, type Entry, type Measured } from './scenarios.ts';
import { startOurs, startPeer, type ServerProcess } from './servers.ts';

export interface OneKeyRun {
  file: string;
  key: string;
  generators: [string, Generator][];
  /** Fresh sets of processes per generator, and rounds in all (spread over the sets). */
  processes: number;
  rounds: number;
  load: Load;
  warmUp: Load;
  pinned: string;
  selected: (name: string) => boolean;
  track: <T extends ServerProcess>(s: T) => T;
  broken: string[];
  sanity: string[];
  out: (text: string) => void;
}

/** Every selected one-key scenario's entry, per generator. */
export async function measureOneKey(r: OneKeyRun): Promise<Record<string, Record<string, Entry>>> {
  const perProcess = Math.max(1, Math.round(r.rounds / r.processes));
  const results: Record<string, Record<string, Entry>> = {};
  for (const [generator, run] of r.generators) {
    const parts = new Map<string, Measured[]>();
    const scenarios = new Map<string, Awaited<ReturnType<typeof scenariosFor>>[number]>();
    for (let p = 0; p < r.processes; p++) {
      const set = await oneKeyProcesses(r);
      for (const s of set.scenarios) {
        const part = await measureScenario(s, {
          generator,
          run,
          load: r.load,
          warmUp: r.warmUp,
          rounds: perProcess,
          firstRound: p * perProcess,
          peer: set.peer,
          ceilingFor: set.ceilingFor,
          track: r.track,
          broken: r.broken,
        });
        scenarios.set(s.name, s);
        parts.set(s.name, [...(parts.get(s.name) ?? []), part]);
      }
      await set.stop();
    }
    const entries: Record<string, Entry> = (results[generator] = {});
    for (const [name, s] of scenarios) {
      entries[name] = entryOf(s, parts.get(name)!);
      r.sanity.push(...entrySanity(generator, name, entries[name]));
    }
    r.out(
      `\n${generator} (${r.load.connections} connections, pipelining ${r.load.pipelining}, ${r.processes} fresh sets of processes x ${perProcess} x ${r.load.duration} s per side, alternating; ${r.pinned}):\n`,
    );
    r.out(scenarioTables(entries));
  }
  return results;
}

/**
 * Fresh servers for the one-key scenarios (ours, ours logging, ours with the failed-auth limit lifted, ours answering
 * refusals at once, the peer) and the selected scenarios against them. One ceiling per server of ours, serving the
 * same scenarios in the same order: a Node process that has served a mix of answers (bodies and none, several header
 * lists) runs Node's own HTTP code slower than one that served a single answer, so each side of a ratio must carry
 * the same history into it.
 */
async function oneKeyProcesses(r: OneKeyRun) {
  const started: ServerProcess[] = [];
  const start = async (name: string, opts: Parameters<typeof startOurs>[2]) => {
    const s = r.track(await startOurs(name, r.file, opts));
    started.push(s);
    return s;
  };
  // Each started when its first scenario comes, as its ceiling is: neither side of a ratio idles longer first.
  const later = (name: string, opts: Parameters<typeof startOurs>[2]) => {
    let s: Promise<ServerProcess> | undefined;
    return () => (s ??= start(name, opts));
  };
  const ours = await start('ours', {});
  const peer = r.track(await startPeer(r.file));
  started.push(peer);
  const scenarios = (
    await scenariosFor(
      r.key,
      ours,
      later('ours + request log', { log: true }),
      later('ours, failed-auth limit lifted', { openAuth: true }),
      later('ours, refusals not held', { noHold: true }),
    )
  ).filter((s) => r.selected(s.name));
  const ceilings = new Map<ServerProcess, Ceiling>();
  const ceilingFor = async (server: ServerProcess, first: Replayed) => {
    let c = ceilings.get(server);
    if (!c) ceilings.set(server, (c = r.track(await startCeiling([first]))));
    return c;
  };
  const stop = async () => {
    for (const s of [...started, ...ceilings.values()]) await s.stop();
  };
  return { scenarios, peer, ceilingFor, stop };
}
