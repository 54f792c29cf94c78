// The Import page as an answer: its form, and what the last upload came to (applied, its problems, or too large).
import { importTooLarge } from '../domain/import.ts';
import type { Answer } from '../http/transport/answer.ts';
import type { Authenticated } from './auth.ts';
import { htmlAnswer } from './http.ts';
import type { Texts } from './i18n/i18n.ts';
import { importBody, type ImportOutcome } from './pages/import.ts';
import { panelPage } from './pages/layout.ts';

export const importPage = (tx: Texts, who: Authenticated, outcome?: ImportOutcome, status = 200): Answer =>
  htmlAnswer(panelPage(tx, tx.t.import, importBody(tx, who, outcome), who), status);

/** A file over the import limit, refused as `listings import` refuses it (named as the upload names it). */
export const importTooLargePage = (tx: Texts, who: Authenticated, filename: string): Answer =>
  importPage(tx, who, { problems: [importTooLarge(filename || 'upload').message] }, 413);
