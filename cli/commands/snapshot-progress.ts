// Export progress for people: one bar redrawn in place on a terminal, a few plain lines in logs and pipes.
import type { ExportProgress } from '../../server/snapshots/publish/export.ts';
import type { Io } from '../io.ts';

const PER_FACILITY_UP_TO = 50;
const REDRAW_MS = 100;
const BAR_WIDTH = 24;

/** io.out always ends a line, so a redraw moves up one line and clears it: \x1b[1A, then \r and \x1b[2K. */
const REDRAW = '\x1b[1A\r\x1b[2K';

export function progressReporter(
  io: Io,
  opts: { bar: boolean; verb?: 'export' | 'publish' },
): (p: ExportProgress) => void {
  const verb = opts.verb ?? 'export';
  if (opts.bar) return progressBar(io, `${verb}ing`);
  return (p) => {
    if (p.total <= PER_FACILITY_UP_TO) {
      const f = p.facility;
      io.err(
        `${f.id}: version ${f.version}, ${f.listings} listings, ${f.changed ? 'changed' : 'unchanged'} (${p.done}/${p.total})`,
      );
    } else if (p.done % Math.ceil(p.total / 10) === 0 || p.done === p.total) {
      io.err(`${verb}ed ${p.done}/${p.total} facilities (${rateOf(p)}/s)`);
    }
  };
}

type Counted = Pick<ExportProgress, 'done' | 'total' | 'elapsedMs'>;

/** One bar redrawn in place (at most every REDRAW_MS, and always at the end): `label [####....] done/total facilities`. */
export function progressBar(io: Io, label: string): (p: Counted) => void {
  let drawn = false;
  let lastDraw = 0;
  return (p) => {
    const now = performance.now();
    if (p.done < p.total && now - lastDraw < REDRAW_MS) return;
    lastDraw = now;
    io.out(`${drawn ? REDRAW : ''}${barLine(p, label)}`);
    drawn = true;
  };
}

function barLine(p: Counted, label: string): string {
  const filled = Math.round((p.done / p.total) * BAR_WIDTH);
  const rate = rateOf(p);
  const eta = p.done < p.total && rate > 0 ? `  eta ${Math.ceil((p.total - p.done) / rate)}s` : '';
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${p.done}/${p.total} facilities  ${rate}/s${eta}`;
}

function rateOf(p: Counted): number {
  return p.elapsedMs > 0 ? Math.round((p.done * 1000) / p.elapsedMs) : 0;
}
