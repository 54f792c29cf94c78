// Whether and how much of a request's body the panel reads, decided from its head alone: a form's few kilobytes on
// every route, an import file only on the import route, from a logged-in operator whose Origin is the panel's.
import { MAX_IMPORT_BYTES } from '../domain/import.ts';
import type { Role } from '../domain/roles.ts';
import type { Store } from '../store/store.ts';
import { authenticate, fromPanel, notFromPanel, type PanelOrigin } from './auth.ts';
import { plain, type PanelRequestHead } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { beyondRole } from './roles.ts';
import { pathOf } from '../http/router.ts';
import { textsFor } from './i18n/i18n.ts';
import { importTooLargePage } from './import-page.ts';

/** The role an import needs, checked here too, so that a viewer's upload is refused before a byte of it is read. */
export const UPLOAD_ROLE: Role = 'manager';

/** Forms are small; only an upload may carry an import file (and its multipart framing). */
export const FORM_BYTES = 64 * 1024;
export const UPLOAD_BYTES = MAX_IMPORT_BYTES + FORM_BYTES;

/**
 * Read at most `limit` bytes (an upload into a temporary file, `fileTooLarge` answering a file over the import limit),
 * or answer `refusal` without reading any.
 */
export type Admission =
  | { limit: number; upload: false }
  | { limit: number; upload: true; fileTooLarge: (filename: string) => Answer }
  | { refusal: Answer };

/** The one route whose body is an upload. */
export const isUploadRoute = (method: string, path: string): boolean => method === 'POST' && path === '/import';

export const tooLarge = (): Answer => plain(413, 'Too large.');

export async function admissionOf(
  head: PanelRequestHead,
  panel: { store: Store; origin: PanelOrigin; uploadBytes?: number },
): Promise<Admission> {
  const declared = Number(head.headers['content-length'] ?? 0);
  const path = pathOf(head.url);
  if (!isUploadRoute(head.method, path))
    return declared > FORM_BYTES ? { refusal: tooLarge() } : { limit: FORM_BYTES, upload: false };
  // The checks the handler makes again once the body is in, made first here so that nobody else can send a large one.
  if (!fromPanel(head, panel.origin)) return { refusal: notFromPanel(panel.origin) };
  const who = await authenticate(panel.store, head, panel.origin);
  if (!who) return { refusal: plain(401, 'Log in first.') };
  const refusal = await beyondRole(panel.store, who, { method: head.method, path }, UPLOAD_ROLE);
  if (refusal) return { refusal };
  const limit = panel.uploadBytes ?? UPLOAD_BYTES;
  // The Import page with `listings import`'s refusal, in the operator's language: the file is refused, not the page.
  const tx = textsFor(head.headers['accept-language']);
  const fileTooLarge = (filename: string) => importTooLargePage(tx, who, filename);
  return declared > limit ? { refusal: fileTooLarge('') } : { limit, upload: true, fileTooLarge };
}
