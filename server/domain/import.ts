// Parses and validates an import file's text completely, before anything touches the store.
import { ListingsError } from '../errors.ts';
import { describeIssues, ImportFile } from '../schemas/import.ts';

export function parseImport(text: string, source: string): ImportFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ListingsError('invalid_import', `${source}: not valid JSON: ${(err as Error).message}`);
  }
  const parsed = ImportFile.safeParse(json);
  if (!parsed.success) {
    const lines = describeIssues(parsed.error);
    const more = lines.length > 1 ? ` (and ${lines.length - 1} more problem${lines.length > 2 ? 's' : ''})` : '';
    throw new ListingsError('invalid_import', `${source}: ${lines[0]}${more}`, lines);
  }
  return parsed.data;
}
