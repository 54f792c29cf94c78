// A lease's holder is alive only while its process runs: a killed process not yet reaped (a zombie) holds its pid, and
// its leases are freed at once, as a gone process's are.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { until } from '../../test/helpers/wait.ts';
import { processAlive } from './deliverer.ts';

describe('processAlive', () => {
  it('is true for a running process and false for a zombie and for a pid no process holds', async () => {
    // The background `read` becomes the child of `sleep 30`, which never reaps it: a zombie once it ends. It ends when
    // told to, after the exec, so that sh (which reaps its children) is gone by then however loaded the machine is.
    const parent = spawn('sh', ['-c', 'read x <&3 & echo $!; exec sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore', 'pipe'],
    });
    try {
      const zombie = Number(
        await new Promise<string>((resolve) => parent.stdout!.once('data', (d) => resolve(String(d)))),
      );
      await until('sh to become sleep', () => readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim() === 'sleep');
      (parent.stdio[3] as Writable).end('go\n');
      await until('the child to be a zombie', () => {
        const stat = readFileSync(`/proc/${zombie}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
      });
      expect(processAlive(parent.pid!)).toBe(true);
      expect(processAlive(zombie)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(2 ** 22 + 1)).toBe(false);
  });
});
