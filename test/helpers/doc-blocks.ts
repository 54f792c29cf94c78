// The ```sh blocks of README.md and docs/*.md, and the commands in them as a terminal reads them when they are pasted.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every doc, by its path from the repository's root: README.md first, then docs/*.md in name order. */
export function readDocs(root: string): Map<string, string> {
  const pages = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return new Map(['README.md', ...pages].map((path) => [path, readFileSync(join(root, path), 'utf8')]));
}

export interface ShellBlock {
  doc: string;
  /** The line of the doc the block's first command line is on (1-based). */
  line: number;
  text: string;
  /** Marked ```sh remote: it needs hosts or credentials a clone does not have (S3, a CDN, rsync to a server). */
  remote: boolean;
}

/** The ```sh, ```bash and ```shell blocks of one doc, in order. */
export function shellBlocks(doc: string, text: string): ShellBlock[] {
  return [...text.matchAll(/^```(?:sh|bash|shell)( remote)?\n([\s\S]*?)^```/gm)].map((m) => ({
    doc,
    line: text.slice(0, m.index).split('\n').length + 1,
    text: m[2]!,
    remote: m[1] !== undefined,
  }));
}

export interface ShellCommand {
  doc: string;
  line: number;
  /** One command as the shell reads it: lines ending in a backslash run on into the next. */
  text: string;
}

/** The commands of a block: blank and comment-only lines dropped, continued lines joined (with their newlines). */
export function commandsOf(block: ShellBlock): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let pending: ShellCommand | undefined;
  block.text.split('\n').forEach((text, i) => {
    if (pending) pending.text += `\n${text}`;
    else if (text.trim() !== '' && !text.trim().startsWith('#'))
      pending = { doc: block.doc, line: block.line + i, text };
    if (pending && !text.endsWith('\\')) {
      commands.push(pending);
      pending = undefined;
    }
  });
  if (pending) commands.push(pending);
  return commands;
}

/** What a command's trailing comment says it prints: `# 304`, `# 401 missing_api_key, ...` or `# ok`. */
export function expectedOutput(command: ShellCommand): string | undefined {
  const last = command.text.split('\n').at(-1)!;
  return /\s#\s*(\d{3}|ok)\b/.exec(last)?.[1];
}
