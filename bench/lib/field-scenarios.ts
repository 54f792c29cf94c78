// The two scenarios of traffic as it comes in the field, which `npm run bench` reports first: the field mix (ours
// against a ceiling replaying ours' answers to the same mix, and against the Fastify peer) and abuse (a partner's
// latency with and without each pattern of abuse: an abusive key and anonymous pages, a rotation through large
// facilities' pages, a crawl, an upload flood to the panel). Both run on their own database, ours behind a trusted
// proxy (127.0.0.1) that forwards each client's address in X-Forwarded-For; for abuse, with its panel (`serve --panel`).
import { describeDb } from './data.ts';
import { abuseTables } from './abuse-report.ts';
import { ABUSE_FULL, ABUSE_QUICK, abuseTargets, issueAbuseKeys, measureAbuse, type AbuseEntry } from './abuse.ts';
import { PATTERNS, ROTATE, UPLOAD } from './abuse-patterns.ts';
import { fieldTables } from './field-report.ts';
import { measureFieldMix, type FieldEntry, type FieldRun } from './field.ts';
import {
  FIELD_FULL,
  FIELD_QUICK,
  fieldRotation,
  generateFieldDb,
  issueFieldKeys,
  type FieldSettings,
} from './field-mix.ts';
import { CORE_BOUND, WAIT_BOUND } from './sanity.ts';
import { startOurs, startPeer } from './servers.ts';

export async function fieldScenarios(
  r: FieldRun & { quick: boolean; field: boolean; abuse: boolean; pinned: string },
): Promise<{ field_mix?: FieldEntry; abuse?: AbuseEntry[] }> {
  const all = r.quick ? FIELD_QUICK : FIELD_FULL;
  // The field mix's database has one large facility; the abuse scenario's database adds its own large ones.
  let field: FieldEntry | undefined;
  if (r.field) {
    const settings = { ...all, unkeyedLarge: 0 };
    const { db, ours, world } = await startWorld(settings, false, r);
    const peer = r.track(await startPeer(db.file));
    const rotation = fieldRotation(world, settings);
    field = await measureFieldMix(world, settings, rotation, ours, peer, r);
    await peer.stop();
    r.out(
      `\nfield mix (${r.generator}; ${describeDb(db)}; ${world.keys.length} live keys on ${world.keyed.length} facilities, ` +
        `${settings.keysPerFacility} each, and ${world.revoked.length} revoked; ${settings.rotation.toLocaleString('en-US')} requests rotating, ` +
        `${settings.addresses.toLocaleString('en-US')} client addresses; ${r.load.connections} connections, ${r.pairs} x ${r.load.duration} s for ours and the ceiling, ${Math.floor(r.pairs / 3)} for the peer, alternating; ${r.pinned}):\n`,
    );
    r.out(fieldTables(field));
    if (field.ratio_rps > 1)
      r.sanity.push(`field mix: ours at ${field.ratio_rps}x a server that only replays its answers`);
    for (const [name, side] of [
      ['ours', field.ours],
      ['the ceiling', field.ceiling],
    ] as const)
      if (side.server_waited > WAIT_BOUND)
        r.sanity.push(
          `field mix: ${name} waited for its core ${Math.round(side.server_waited * 100)} % of the time (median round): other processes had it`,
        );
    // A ceiling short of its core was held back by the generator or the machine: its req/s understates it.
    if (field.ceiling.core_busy < CORE_BOUND)
      r.sanity.push(
        `field mix: the ceiling kept its core ${Math.round(field.ceiling.core_busy * 100)} % busy (ours ${Math.round(field.ours.core_busy * 100)} %, the load generator ${Math.round(field.ceiling.generator_busy * 100)} % of its own): its req/s is not its limit, so the req/s ratio flatters ours; compare CPU µs/req (ratio ${field.ratio_cpu})`,
      );
    await ours.stop();
  }

  const abuse: AbuseEntry[] = [];
  const s = r.quick ? ABUSE_QUICK : ABUSE_FULL;
  if (!r.abuse) return { field_mix: field };
  // Abuse runs on its own database and a fresh process: its RSS figures are not the field mix's caches.
  const { db, ours, world } = await startWorld(all, true, r);
  const abuseKeys = issueAbuseKeys(world, abuseTargets(world));
  // A quick run (CI: does it run end to end) measures every pattern on the large facility's key alone.
  for (const keys of r.quick ? abuseKeys.slice(-1) : abuseKeys)
    for (const pattern of PATTERNS) abuse.push(await measureAbuse(world, keys, ours, s, pattern, r.broken));
  for (const e of abuse)
    for (const [condition, c] of [
      ['alone', e.alone],
      ['with abuse', e.with_abuse],
    ] as const)
      if (c.server_waited > WAIT_BOUND)
        r.sanity.push(
          `abuse (key of ${e.target.label}, ${condition}): ours waited for its core ${Math.round(c.server_waited * 100)} % of the time (median round): other processes had it, and the partner's latencies show it`,
        );
  if (abuse.length > 0) {
    r.out(
      `\nabuse (a partner polling ${s.rate} req/s, open loop, over 4 keys with the default limit, one of them on the abused facility; ` +
        `ours with its panel in its process; ${s.rounds} x ${s.seconds} s per condition, alternating, then ${2 * s.rounds} windows of each; the patterns: ` +
        `filter + rent: one key with the default limit (100/s, burst 500) sending distinct filter values, and anonymous rental pages ` +
        `of that facility from one address and from a botnet, ${s.connections} connections each, closed loop; ` +
        `rotate: one client alternating rental pages of ${world.rotated.length} facilities of ${db.sizes[world.large]!.toLocaleString('en-US')} listings, ${ROTATE.rate}/s over ${ROTATE.addresses} addresses; ` +
        `crawl: every rental page of a ${db.sizes[world.crawled]!.toLocaleString('en-US')}-listing facility with long fields in order (${s.crawl_pass ? 'one pass alone, then in the rounds' : 'in the rounds'}), ${s.connections} connections, rotating addresses; ` +
        `upload: ${UPLOAD.connections} concurrent ${UPLOAD.bytes / 1024 / 1024} MB multipart bodies to the panel's /login, again and again):\n`,
    );
    r.out(abuseTables(abuse));
  }
  await ours.stop();
  return { field_mix: field, abuse: abuse.length > 0 ? abuse : undefined };
}

/** A database of these settings, ours serving it behind a trusted proxy (with its panel for abuse), and its keys. */
async function startWorld(settings: FieldSettings, panel: boolean, r: FieldRun & { quick: boolean }) {
  const db = generateFieldDb(r.dir, settings);
  r.out(`\n${panel ? 'abuse' : 'field'} database: ${describeDb(db)}, generated in ${db.seconds.toFixed(1)} s\n`);
  const ours = r.track(
    await startOurs(`ours (${panel ? 'abuse' : 'field'})`, db.file, { trustProxy: '127.0.0.1', panel }),
  );
  // Every key is issued (and some revoked) before any measuring: a write to the database empties ours' caches.
  return { db, ours, world: issueFieldKeys(db, settings) };
}
