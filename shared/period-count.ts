// How many of its one unit a billing period is, for words that agree with that count ("Pierwsze 3 miesiące"). A file
// of its own: only the details dialog needs it, so the widget's bundle loads it with the dialog and not before.
import { parseDuration } from './format.ts';

/** P3M -> 3, P14D -> 14, P1M -> 1; a period of more than one unit (P1Y2M) -> 0, which every language calls "other". */
export function periodCount(iso: string): number {
  const parts = parseDuration(iso);
  return parts?.length === 1 ? parts[0]![1] : 0;
}
