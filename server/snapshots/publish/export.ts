// `snapshot export`: a publish of every facility to a folder (the same code as `snapshot publish`, forced).
import { resolve } from 'node:path';
import type { Db } from '../../store/db.ts';
import type { PublishAudit } from '../../store/audit.ts';
import type { SnapshotLedger } from '../../store/ledger.ts';
import type { SigningKey } from '../format/keygen.ts';
import { publishSnapshots, type FacilityPublished, type PublishProgress } from './publish.ts';
import { folderTarget } from '../targets/folder.ts';

export interface ExportOptions {
  outDir: string;
  key: SigningKey;
  publicUrl: string;
  /** Default: every facility. */
  facilityIds?: readonly string[];
  ttlSeconds: number;
  now?: Date;
  /** Facilities in flight at once (their file writes overlap). */
  concurrency?: number;
  onProgress?: (progress: ExportProgress) => void;
  /** Each version written is audited as an export to the folder. */
  audit?: PublishAudit;
}

export type ExportProgress = PublishProgress;

export interface ExportSummary {
  out: string;
  kid: string;
  generated_at: string;
  expires_at: string;
  facilities: number;
  listings: number;
  changed: number;
  unchanged: number;
  bytes: number;
  seconds: number;
  results: FacilityPublished[];
}

/** Every facility gets a new version on every export, as the contract says; `publish` is the one that skips. */
export async function exportSnapshots(source: Db | SnapshotLedger, opts: ExportOptions): Promise<ExportSummary> {
  const out = resolve(opts.outDir);
  const s = await publishSnapshots(source, {
    ...opts,
    target: folderTarget(out),
    force: true,
    audit: opts.audit && { ...opts.audit, action: 'snapshot.export' },
    concurrency: opts.concurrency ?? 8,
  });
  return {
    out,
    kid: s.kid,
    generated_at: s.generated_at,
    expires_at: s.expires_at,
    facilities: s.published,
    listings: s.listings,
    changed: s.changed,
    unchanged: s.unchanged,
    bytes: s.results.reduce((n, r) => n + r.bytes, 0),
    seconds: s.seconds,
    results: s.results,
  };
}
