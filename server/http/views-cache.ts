// Serialised answers per facility (bodies + strong ETags), built once from the domain views and kept until data changes.
import { createHash } from 'node:crypto';
import { detailOf, summaryOf } from '../domain/views.ts';
import type { Summary } from '../schemas/listing.ts';
import type { Db } from '../store/db.ts';
import { facilityData } from '../store/facilities.ts';
import { applyListQuery, queryKey, type ListQuery } from './query.ts';

export interface Body {
  bytes: Buffer;
  etag: string;
}

export interface FacilityViews {
  facility: { id: string; name: string };
  summaries: Summary[];
  list: Body;
  details: Map<string, Body>;
  filtered: Map<string, Body>;
  size: number;
}

const MAX_FILTERED = 32;

export function bodyOf(value: unknown): Body {
  const bytes = Buffer.from(JSON.stringify(value));
  return { bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"` };
}

export class ViewsCache {
  private readonly entries = new Map<string, FacilityViews>();
  private bytes = 0;

  constructor(
    private readonly db: Db,
    private readonly publicUrl: string,
    private readonly budgetBytes = 64 * 1024 * 1024,
  ) {}

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** The facility's answers, built on first use; least recently used facilities leave first when over budget. */
  get(facilityId: string): FacilityViews | undefined {
    const hit = this.entries.get(facilityId);
    if (hit) {
      // Re-insert to mark as most recently used.
      this.entries.delete(facilityId);
      this.entries.set(facilityId, hit);
      return hit;
    }
    const data = facilityData(this.db, facilityId);
    if (!data) return undefined;
    const summaries = data.listings.map((l) => summaryOf(l, data, this.publicUrl));
    const facility = { id: data.facility.id, name: data.facility.name };
    const list = bodyOf({ facility, listings: summaries });
    const details = new Map<string, Body>();
    let size = list.bytes.length;
    for (const l of data.listings) {
      const b = bodyOf(detailOf(l, data, this.publicUrl));
      details.set(l.id, b);
      size += b.bytes.length;
    }
    const views: FacilityViews = { facility, summaries, list, details, filtered: new Map(), size: size * 2 };
    this.entries.set(facilityId, views);
    this.bytes += views.size;
    for (const [id, v] of this.entries) {
      if (this.bytes <= this.budgetBytes || this.entries.size === 1) break;
      this.entries.delete(id);
      this.bytes -= v.size;
    }
    return views;
  }

  listBody(views: FacilityViews, query: ListQuery | undefined): Body {
    if (!query) return views.list;
    const key = queryKey(query);
    let body = views.filtered.get(key);
    if (!body) {
      body = bodyOf({ facility: views.facility, listings: applyListQuery(views.summaries, query) });
      if (views.filtered.size >= MAX_FILTERED) views.filtered.delete(views.filtered.keys().next().value!);
      views.filtered.set(key, body);
    }
    return body;
  }
}
