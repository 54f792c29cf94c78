// The analyzer's CLI module, which ships no types: `cli` parses argv as `cem` does and answers the manifest it made.
declare module '@custom-elements-manifest/analyzer/cli.js' {
  export function cli(options: { argv: string[]; cwd: string; noWrite: boolean }): Promise<unknown>;
}
