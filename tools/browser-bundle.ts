// How a browser bundle is built (the widget, the panel's script): one minified ES module with Lit inside, and its gzip
// size printed after the build. Each vite.config.ts names its entry, its output and what it adds.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Plugin, UserConfig } from 'vite';

/** The folder beside the entry that holds its on-demand chunks, their names hashed by content. */
export const CHUNKS = 'chunks';

/** The chunk files of a built bundle folder, as paths relative to it. */
export function chunksIn(out: string): string[] {
  try {
    return readdirSync(`${out}/${CHUNKS}`)
      .filter((name) => name.endsWith('.js'))
      .map((name) => `${CHUNKS}/${name}`);
  } catch {
    return []; // a bundle without chunks
  }
}

export interface BrowserBundle {
  /** The folder of the config: entry and outDir are relative to it. */
  root: URL;
  entry: string;
  outDir: string;
  fileName: string;
  /** Runs after the build with the bundle's bytes and gzip size; prints them unless it returns a line of its own. */
  built?: (bytes: Buffer, gzipped: number) => string | void;
  /**
   * The name of a chunk (`chunks/NAME-HASH.js`) that holds everything the entry imports statically, so the entry is a
   * small module and its chunks import that chunk, never the entry: a page may load the entry with a query string
   * (`?ver=6.4.2`) that a chunk cannot know, and an import of the entry without it would run a second copy.
   */
  core?: string;
}

/** Puts every module the entry reaches by static imports (the entry itself aside) into one chunk named `name`. */
function coreGroup(name: string, entry: string) {
  let core: Set<string> | undefined;
  return {
    debugName: name,
    name(id: string, ctx: { getModuleInfo(id: string): { importedIds: string[] } | null }) {
      if (!core) {
        core = new Set();
        const queue = [...(ctx.getModuleInfo(entry)?.importedIds ?? [])];
        for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
          if (core.has(next)) continue;
          core.add(next);
          queue.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
        }
      }
      return core.has(id) ? name : null;
    },
  };
}

export function browserBundle({ root, entry, outDir, fileName, built, core }: BrowserBundle): UserConfig {
  const out = fileURLToPath(new URL(outDir, root));
  const report: Plugin = {
    name: 'storage-listings:gzip-size',
    apply: 'build',
    closeBundle() {
      const bytes = readFileSync(`${out}/${fileName}`);
      const gzipped = gzipSync(bytes).length;
      const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
      const line = built?.(bytes, gzipped) ?? '';
      const dir = outDir.replace(/^\.\.\//, '');
      const coreChunk = core && chunksIn(out).find((chunk) => chunk.startsWith(`${CHUNKS}/${core}-`));
      // what a page loads before anything shows: the entry and its core chunk
      const first = coreChunk ? gzipped + gzipSync(readFileSync(`${out}/${coreChunk}`)).length : gzipped;
      const withCore = coreChunk ? `, with ${coreChunk} gzip ${kb(first)} (${first} bytes)` : '';
      process.stdout.write(
        `${dir}/${fileName}: ${kb(bytes.length)}, gzip ${kb(gzipped)} (${gzipped} bytes)${withCore}${line}\n`,
      );
      for (const chunk of chunksIn(out)) {
        const size = gzipSync(readFileSync(`${out}/${chunk}`)).length;
        process.stdout.write(`${dir}/${chunk}: gzip ${kb(size)} (${size} bytes)\n`);
      }
    },
  };
  return {
    root: fileURLToPath(root),
    publicDir: false,
    logLevel: 'warn',
    plugins: [report],
    build: {
      outDir: out,
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      sourcemap: false,
      lib: { entry: fileURLToPath(new URL(entry, root)), formats: ['es'], fileName: () => fileName },
      // Library mode keeps whitespace and /*@__PURE__*/ comments for downstream bundlers; these files are loaded as
      // they are by browsers, so they get the full minifier.
      // The entry may export what its chunks share with it, so that nothing it needs itself moves into a chunk.
      rolldownOptions: {
        preserveEntrySignatures: 'allow-extension',
        output: {
          minify: true,
          comments: false,
          chunkFileNames: `${CHUNKS}/[name]-[hash].js`,
          ...(core ? { codeSplitting: { groups: [coreGroup(core, fileURLToPath(new URL(entry, root)))] } } : {}),
        },
      },
    },
  };
}
