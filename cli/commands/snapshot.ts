// `listings snapshot keygen|export|publish|withdraw|follow|verify`: signed static copies of each facility's listings, for any static host or CDN.
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { ListingsError } from '../../server/errors.ts';
import { exportSnapshots, type ExportSummary } from '../../server/snapshots/publish/export.ts';
import { generateSigningKey, loadSigningKey } from '../../server/snapshots/format/keygen.ts';
import { verifySnapshot, type Checked } from '../../server/snapshots/format/verify.ts';
import { parseFolder } from '../../server/snapshots/targets/open.ts';
import { withLedger } from '../context.ts';
import { refuseUnignoredKey } from './key-placement.ts';
import { json, type Io } from '../io.ts';
import {
  formatDuration,
  parseFacilityId,
  parseTtl,
  parsePositiveInt,
  loopbackRentLinks,
  publicUrlOf,
  publicUrlOptions,
  TTL_DEFAULT_SECONDS,
  type PublicUrlFlags,
} from './snapshot-args.ts';
import { progressReporter } from './snapshot-progress.ts';
import { followCommand, withdrawCommand } from './snapshot-feed.ts';
import { publishCommand } from './snapshot-publish.ts';

export function snapshotCommand(io: Io): Command {
  const snapshot = new Command('snapshot')
    .description('signed static snapshots of the listings, for static hosting and CDNs')
    .addHelpText(
      'after',
      [
        '\nExamples:',
        '  $ listings snapshot keygen --out data/secrets',
        '  $ listings snapshot export --out data/public --signing-key data/secrets/signing-key.pem',
        '  $ listings snapshot publish --to s3://listings-cdn/snapshots --signing-key data/secrets/signing-key.pem --watch',
        '  $ listings snapshot verify data/public/wro-1 --keys data/public/keys.json',
        '  $ listings snapshot follow https://cdn.example/snapshots --keys https://operator.example/keys.json --state data/mirror',
      ].join('\n'),
    );

  snapshot
    .command('keygen')
    .description(
      'make an Ed25519 signing key pair: DIR/signing-key.pem (private, mode 600), DIR/public-key.pem and DIR/public-key.jwk.json',
    )
    .requiredOption('--out <dir>', 'folder for the key files (keep it private)', parseFolder('--out'))
    .option(
      '--force',
      'replace an existing signing-key.pem (files signed with the old key verify only while keys.json still lists it)',
    )
    .option('--allow-unignored', 'write the key even inside a git work tree that does not ignore it')
    .option('--json', 'print as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  $ listings snapshot keygen --out data/secrets\n\nThe kid is base64url(first 16 bytes of SHA-256(raw 32-byte public key)).',
    )
    .action(async (opts: { out: string; force?: boolean; allowUnignored?: boolean; json?: boolean }) => {
      if (!opts.allowUnignored) refuseUnignoredKey(join(opts.out, 'signing-key.pem'));
      const r = await generateSigningKey(opts.out, { force: opts.force ?? false });
      if (opts.json) io.out(json(r));
      else {
        io.out(
          `kid ${r.kid}\n  private key  ${r.private_key} (mode 600: keep it secret, back it up)\n  public key   ${r.public_key_pem}\n  public JWK   ${r.public_key_jwk}`,
        );
        io.err(
          `Next: listings snapshot export --out ${join(dirname(opts.out), 'public')} --signing-key ${r.private_key}`,
        );
      }
    });

  publicUrlOptions(
    snapshot
      .command('export')
      .description(
        "write every facility's new version as OUT/<facility>/v<version>/listings.json (every active listing as a Detail) and .sig, then the pointer OUT/<facility>/listings.json and .sig, OUT/keys.json and OUT/keys/<kid>.pem",
      )
      .requiredOption(
        '--out <dir>',
        'output folder: upload it as is to any static host',
        parseFolder('--out', 'to upload to a bucket, use snapshot publish --to'),
      )
      .requiredOption('--signing-key <file>', 'the private key from "snapshot keygen"')
      .option('--facility <id>', 'only this facility (repeatable; default: all)', parseFacilityId)
      .option(
        '--ttl <duration>',
        'how long the files stay valid: s, m, h or d (default 7d); make it longer than the re-export interval',
        parseTtl,
      ),
  )
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings snapshot export --out data/public --signing-key data/secrets/signing-key.pem\n  $ listings snapshot export --out data/public --signing-key data/secrets/signing-key.pem --facility wro-1 --ttl 2d',
    )
    .action(
      async (
        opts: PublicUrlFlags & { out: string; signingKey: string; facility?: string[]; ttl?: number; json?: boolean },
        cmd: Command,
      ) => {
        const publicUrl = publicUrlOf(opts);
        const key = await loadSigningKey(opts.signingKey);
        if (key.warning) io.err(`warning: ${key.warning}`);
        const summary = await withLedger(cmd, async (ledger, audit) => {
          const loopback = await loopbackRentLinks(ledger, publicUrl, opts.facility);
          const exported = await exportSnapshots(ledger, {
            audit,
            outDir: opts.out,
            key,
            publicUrl,
            facilityIds: opts.facility,
            ttlSeconds: opts.ttl ?? TTL_DEFAULT_SECONDS,
            onProgress: progressReporter(io, { bar: io.isTTY && !opts.json }),
          });
          // After the export, so that a run that fails says only why.
          if (loopback) io.err(`warning: ${loopback}`);
          return exported;
        });
        io.out(opts.json ? json(summary) : summaryText(summary));
      },
    );

  snapshot.addCommand(publishCommand(io));
  snapshot.addCommand(withdrawCommand(io));
  snapshot.addCommand(followCommand(io));

  snapshot
    .command('verify')
    .description(
      'check a snapshot: signature over the exact bytes, kid, expiry and (with --min-version) rollback; exit 1 with the reason if any fails',
    )
    .argument(
      '<path-or-url>',
      'listings.json or its facility folder, as a local path or an http(s) URL; the signature is that of the version named inside it (v<version>/listings.json.sig beside it, else <listings.json>.sig)',
    )
    .requiredOption('--keys <file-or-url>', 'the JWKS (keys.json) the signature is checked against')
    .option('--min-version <n>', 'reject versions below n (rollback to an older file)', parsePositiveInt)
    .option('--facility <id>', 'reject a snapshot of any other facility')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings snapshot verify data/public/wro-1 --keys data/public/keys.json\n  $ listings snapshot verify https://cdn.example/wro-1/listings.json --keys https://operator.example/keys.json --min-version 42\n\nFailure reasons: malformed, kid_mismatch, unknown_kid, signature_invalid, facility_mismatch, expired, rollback, withdrawn, unreadable.',
    )
    .action(async (target: string, opts: { keys: string; minVersion?: number; facility?: string; json?: boolean }) => {
      let location = target;
      try {
        // Loaded here, not at the top: undici is about 10 MB of memory that `listings serve` would carry for nothing.
        const { loadSnapshotFiles, loadText } = await import('../../server/snapshots/format/load.ts');
        const [files, jwks] = await Promise.all([loadSnapshotFiles(target), loadText(opts.keys)]);
        location = files.location;
        const result = verifySnapshot(files.listings, files.signature, jwks, {
          now: new Date(),
          minVersion: opts.minVersion,
          facility: opts.facility,
          name: fileNameOf(files.location),
        });
        if (!result.ok) throw new ListingsError(result.reason, result.message);
        io.out(
          opts.json
            ? json({ ok: true, location, keys: opts.keys, checked: result.checked })
            : checkedText(location, opts.keys, result.checked),
        );
      } catch (err) {
        if (!(err instanceof ListingsError)) throw err;
        if (opts.json) io.out(json({ ok: false, location, reason: err.code, message: err.message }));
        // An unreadable file's message names the file already.
        throw new ListingsError(
          err.code,
          err.code === 'unreadable' ? `unreadable: ${err.message}` : `${location}: ${err.code}: ${err.message}`,
        );
      }
    });

  return snapshot;
}

function summaryText(s: ExportSummary): string {
  const kb = (s.bytes / 1024).toFixed(1);
  return [
    `exported ${s.facilities} facilities, ${s.listings} listings (${s.changed} changed, ${s.unchanged} unchanged), ${kb} KiB in ${s.seconds.toFixed(2)} s`,
    `  out      ${s.out}`,
    `  kid      ${s.kid}`,
    `  expires  ${s.expires_at} (generated ${s.generated_at})`,
  ].join('\n');
}

function checkedText(location: string, keys: string, c: Checked): string {
  const version =
    c.min_version === null
      ? `${c.version} (no --min-version: rollback not checked)`
      : `${c.version} (>= min-version ${c.min_version})`;
  return [
    `verified ${location}`,
    `  signature  valid Ed25519 (${c.alg}) over ${c.bytes} bytes`,
    `  kid        ${c.kid} (found in ${keys}, matches listings.json)`,
    `  facility   ${c.facility.id} (${c.facility.name})`,
    `  version    ${version}`,
    `  expires    ${c.expires_at} (in ${formatDuration(c.expires_in_seconds)}; generated ${c.generated_at})`,
    `  listings   ${c.listings}`,
  ].join('\n');
}

/** The last part of a path or URL: how verify's messages call the file it was given. */
function fileNameOf(location: string): string {
  const path = /^https?:\/\//i.test(location) ? new URL(location).pathname : location;
  return path.split(/[\\/]/).filter(Boolean).pop() ?? location;
}
