// `npx tsx tools/import-graph.ts`: the relative imports of server/, cli/ and shared/, checked for circles and for
// arrows up the layers (shared -> domain -> store -> freshness -> answers -> the app -> cli); exits 1 on either.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Each layer may import its own and those before it; the first prefix that matches a file names its layer. */
const LAYERS: [layer: string, prefixes: string[]][] = [
  ['base', ['shared/', 'server/schemas/', 'server/errors.ts', 'server/repo.ts', 'server/node-flags.ts']],
  ['domain', ['server/domain/']],
  ['store', ['server/store/']],
  ['freshness', ['server/freshness/']],
  ['answers', ['server/http/', 'server/snapshots/']],
  ['panel', ['server/panel/']],
  ['app', ['server/']],
  ['cli', ['cli/']],
];

function layerOf(file: string): number {
  return LAYERS.findIndex(([, prefixes]) => prefixes.some((p) => file.startsWith(p)));
}

/** Source files, tests aside (they may reach anywhere they test). */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [path] : [];
  });
}

/** The files a file imports (static and dynamic, relative specifiers only), as paths from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|^import\s+)'(\.[^']+)'/gm)].map((m) => m[1]!);
  return specifiers
    .map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)))
    .filter((p) => existsSync(join(ROOT, p)) && p.endsWith('.ts'));
}

/** Strongly connected components of more than one file (or a file importing itself): every circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

export interface ImportProblems {
  circles: string[][];
  /** `from -> to` where `to` is in a later layer than `from`. */
  upward: string[];
}

export function importProblems(): ImportProblems {
  const graph = new Map<string, string[]>();
  for (const file of ['server', 'cli', 'shared'].flatMap(sources)) graph.set(file, importsOf(file));
  const upward = [...graph].flatMap(([from, tos]) =>
    tos.filter((to) => layerOf(to) > layerOf(from)).map((to) => `${from} -> ${to}`),
  );
  return { circles: circles(graph), upward };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { circles: found, upward } = importProblems();
  const lines = [...found.map((c) => `circle: ${c.join(' <-> ')}`), ...upward.map((u) => `upward: ${u}`)];
  process.stdout.write([...lines, `${found.length} circles, ${upward.length} upward imports`].join('\n') + '\n');
  process.exitCode = found.length + upward.length === 0 ? 0 : 1;
}
