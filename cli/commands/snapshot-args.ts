// Options, argument parsers and formats shared by the snapshot commands: public URL, durations, versions, facility ids.
import { InvalidArgumentError, type Command } from 'commander';
import { loadConfig } from '../../server/config.ts';
import { isFacilityId } from '../../server/snapshots/publish/publish.ts';
import { listFacilities } from '../../server/store/facilities.ts';
import type { SnapshotLedger } from '../../server/store/ledger.ts';
import { hostOption, portOption, publicUrlOption, type Settings } from '../settings.ts';

const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
const MAX_TTL_SECONDS = 366 * 86_400;
export const TTL_DEFAULT_SECONDS = 7 * UNIT_SECONDS.d;

/** `90s`, `30m`, `12h`, `7d` -> seconds. */
export function parseTtl(value: string): number {
  const m = /^(\d+)([smhd])$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('expected a duration such as 90s, 30m, 12h or 7d');
  const seconds = Number(m[1]) * UNIT_SECONDS[m[2] as keyof typeof UNIT_SECONDS];
  if (seconds <= 0 || seconds > MAX_TTL_SECONDS) throw new InvalidArgumentError('must be more than 0 and at most 366d');
  return seconds;
}

/** A whole number of 1 or more: a version, a count. */
export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError('expected a whole number of 1 or more');
  return n;
}

/** A facility id (`withdraw FACILITY`); one that cannot be an id is a usage error. */
export function facilityIdArgument(value: string): string {
  if (!isFacilityId(value))
    throw new InvalidArgumentError(`"${value}" is not a facility id (1-64 characters of a-z, 0-9 or "-")`);
  return value;
}

/** `--facility ID`, repeatable. */
export function parseFacilityId(value: string, previous: string[] = []): string[] {
  return [...previous, facilityIdArgument(value)];
}

/** 7d 0h 0m, 3h 12m, 42s: how long until a snapshot expires. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const [d, h, m] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60)];
  if (d > 0) return `${d}d ${h}h ${m}m`;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m ${s % 60}s` : `${s}s`;
}

export type PublicUrlFlags = Pick<Settings, 'host' | 'port' | 'publicUrl'>;

/** --public-url, and the --host and --port its default is made of (HOST and PORT, hidden: nothing listens here). */
export function publicUrlOptions(cmd: Command): Command {
  return cmd
    .addOption(publicUrlOption('URL of the server, for rent links without a rental page template'))
    .addOption(hostOption().hideHelp())
    .addOption(portOption().hideHelp());
}

/** The public URL the server with these settings would have. */
export function publicUrlOf({ host, port, publicUrl }: PublicUrlFlags): string {
  return loadConfig({ host, port, publicUrl }, {}).publicUrl;
}

/** A URL only this machine can open: localhost, 127.0.0.0/8, ::1 (or 0.0.0.0, which is no address to visit). */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return /^(localhost|.+\.localhost|::1|0\.0\.0\.0|127\.\d+\.\d+\.\d+)$/i.test(host);
}

/**
 * Signed public files whose rent links only this machine can open: facilities without a rental page template link to
 * the public URL, which defaults to http://127.0.0.1:8787. A warning, not a refusal, so that a local try still works.
 */
export async function loopbackRentLinks(
  ledger: SnapshotLedger,
  publicUrl: string,
  facilityIds: readonly string[] | undefined,
): Promise<string | undefined> {
  if (!isLoopbackUrl(publicUrl)) return undefined;
  await ledger.refresh();
  const named = facilityIds && facilityIds.length > 0 ? new Set(facilityIds) : undefined;
  const ids = listFacilities(ledger.db)
    .filter((f) => !f.rental_page_url && (!named || named.has(f.id)))
    .map((f) => f.id);
  if (ids.length === 0) return undefined;
  const which = ids.length > 3 ? `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more` : ids.join(', ');
  return (
    `the rent links of ${which} (no rental_page_url template) point at ${publicUrl}, which only this machine can ` +
    "open: pass --public-url (or set PUBLIC_URL) to the server's public address"
  );
}
