// `--to`: s3://BUCKET/PREFIX or a folder, checked before anything is read or written.
import { ListingsError } from '../../errors.ts';
import { folderTarget } from './folder.ts';
import type { S3TargetOptions } from './s3.ts';
import type { Target } from './target.ts';

/** The S3 options other than where (which --to gives); a type-only import, so the SDK loads only for s3:// targets. */
export type TargetOptions = Omit<S3TargetOptions, 'bucket' | 'prefix'>;

export type TargetSpec = { kind: 'folder'; dir: string } | { kind: 's3'; bucket: string; prefix: string };

/** S3's rules for bucket names (3-63 characters, lowercase, digits, dots and hyphens, letters or digits at both ends). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9!_.*'()-]+$/;

/** A URL's scheme: a publish target may be s3://, a folder option none. */
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export function parseTarget(to: string): TargetSpec {
  const value = to.trim();
  if (value === '') throw bad(to, 'it is empty');
  const s3 = /^s3:\/\/([^/]*)\/*(.*)$/i.exec(value);
  if (s3) {
    const [, bucket = '', rest = ''] = s3;
    if (!BUCKET.test(bucket))
      throw bad(to, `"${bucket}" is not a bucket name (3-63 characters: a-z, 0-9, "." and "-")`);
    const segments = rest.split('/').filter((s) => s !== '');
    const wrong = segments.find((s) => !PREFIX_SEGMENT.test(s) || s === '.' || s === '..');
    if (wrong !== undefined)
      throw bad(to, `the prefix segment "${wrong}" may hold only A-Z, a-z, 0-9 and !_.*'()- (and is not "." or "..")`);
    return { kind: 's3', bucket, prefix: segments.join('/') };
  }
  if (URL_SCHEME.test(value)) throw bad(to, 'only s3:// URLs and folder paths are publish targets');
  return { kind: 'folder', dir: value };
}

export async function openTarget(to: string, opts: TargetOptions = {}): Promise<Target> {
  const spec = parseTarget(to);
  if (spec.kind === 'folder') {
    const s3Only = (['endpoint', 'region', 'pathStyle'] as const).find(
      (o) => opts[o] !== undefined && opts[o] !== false,
    );
    if (s3Only)
      throw new ListingsError(
        'invalid_target',
        `--${s3Only === 'pathStyle' ? 'path-style' : s3Only} applies to s3:// targets only, and --to ${to} is a folder`,
      );
    return folderTarget(spec.dir);
  }
  if (opts.endpoint !== undefined && !/^https?:\/\/[^/]/i.test(opts.endpoint)) {
    throw new ListingsError(
      'invalid_target',
      `--endpoint ${opts.endpoint}: expected an http(s) URL such as https://ACCOUNT.r2.cloudflarestorage.com`,
    );
  }
  const { s3Target } = await import('./s3.ts');
  return s3Target({ bucket: spec.bucket, prefix: spec.prefix, ...opts });
}

/**
 * An option's parser for a folder that is never a bucket (`export --out`, `keygen --out`, `follow --state`), checked
 * as --to is: an empty value would be the current folder. `urlHint` says what to use instead of a URL.
 */
export function parseFolder(flag: string, urlHint?: string): (value: string) => string {
  return (value) => {
    const why =
      value.trim() === ''
        ? 'it is empty'
        : URL_SCHEME.test(value.trim())
          ? `not a URL${urlHint ? `: ${urlHint}` : ''}`
          : undefined;
    if (why) throw new ListingsError('invalid_target', `${flag} ${value}: expected a folder path: ${why}`);
    return value;
  };
}

function bad(to: string, why: string): ListingsError {
  return new ListingsError('invalid_target', `--to ${to}: expected s3://BUCKET/PREFIX or a folder path: ${why}`);
}
