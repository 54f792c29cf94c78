// JSDoc comments as the generated .d.ts writes them.

/** A JSDoc comment, its text re-wrapped at 120 columns: a tag starts a line, an empty line stays. */
export function comment(text: string, indent: string): string {
  const width = 120 - indent.length - 3;
  const lines: string[] = [];
  for (const block of text.split(/\n{2,}/)) {
    if (lines.length) lines.push('');
    for (const paragraph of block.split(/\n(?=@)/)) {
      let line = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        if (line && line.length + 1 + word.length > width) {
          lines.push(line);
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      lines.push(line);
    }
  }
  if (lines.length === 1 && lines[0]!.length <= width - 4) return `${indent}/** ${lines[0]} */`;
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`].join('\n');
}
