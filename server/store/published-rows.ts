// The table snapshot_published as both dialects read and write it: one row shape, one upsert, only the placeholders differ.

export interface Published {
  facilityId: string;
  /** The facility's revision and the public URL its Details were made with. */
  revision: number;
  publicUrl: string;
  version: number;
  contentDigest: string;
  kid: string;
  generatedAt: string;
  expiresAt: string;
}

export interface PublishedRow {
  facility_id: string;
  revision: number;
  public_url: string;
  version: number;
  content_digest: string;
  kid: string;
  generated_at: string;
  expires_at: string;
}

/** The upsert's parameters, in the order of its columns. */
export type PublishedValues = [string, string, number, string, number, string, string, string, string];

const KEY = ['target', 'facility_id'];
const COLUMNS = [...KEY, 'revision', 'public_url', 'version', 'content_digest', 'kid', 'generated_at', 'expires_at'];

/** One row's upsert with the dialect's placeholder for parameter n (`?` or `$n`); a row never goes back to a lower version. */
export function upsertPublished(placeholder: (n: number) => string): string {
  const values = COLUMNS.map((_, i) => placeholder(i + 1)).join(', ');
  const set = COLUMNS.slice(KEY.length)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return `INSERT INTO snapshot_published (${COLUMNS.join(', ')}) VALUES (${values})
    ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${set}
    WHERE excluded.version >= snapshot_published.version`;
}

export function publishedValues(target: string, p: Published): PublishedValues {
  return [target, p.facilityId, p.revision, p.publicUrl, p.version, p.contentDigest, p.kid, p.generatedAt, p.expiresAt];
}

export function publishedOf(r: PublishedRow): Published {
  return {
    facilityId: r.facility_id,
    revision: r.revision,
    publicUrl: r.public_url,
    version: r.version,
    contentDigest: r.content_digest,
    kid: r.kid,
    generatedAt: r.generated_at,
    expiresAt: r.expires_at,
  };
}
