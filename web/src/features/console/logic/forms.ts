import type { Audience, LabelKey, LibraryMetadata, NewsDraft } from '../types';

/** The server's default upload limit (`UPLOAD_MAX_BYTES`); it refuses larger files itself too. */
export const UPLOAD_MAX_BYTES = 20 * 1024 * 1024;

/** File types the library takes: PDF and legacy Excel workbooks (the server checks the bytes). */
export const ACCEPTED_FILES = '.pdf,.xls,application/pdf,application/vnd.ms-excel';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export type Errors<K extends string> = Partial<Record<K, string>>;

export function hasErrors(errors: Errors<string>): boolean {
  return Object.values(errors).some(Boolean);
}

/** Why a chosen file cannot be uploaded, or `null`. */
export function fileProblem(file: { name: string; size: number } | null, limit = UPLOAD_MAX_BYTES): string | null {
  if (!file) return 'Choose a file.';
  if (!/\.(pdf|xls)$/i.test(file.name)) return 'Only PDF and XLS files can be uploaded.';
  if (file.size === 0) return 'This file is empty.';
  if (file.size > limit) return `The file is larger than ${formatBytes(limit)}.`;
  return null;
}

/** A `datetime-local` value (local time) as RFC 3339; `undefined` when empty or unreadable. */
export function localToIso(value: string): string | undefined {
  if (!value.trim()) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A time as a `datetime-local` value (local, to the minute); '' when unset. */
export function toLocalInput(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The release and expiry times' problems: unreadable, or an expiry not after release (or now). */
export function scheduleProblems(releaseAt: string, expiresAt: string, now: number): Errors<'releaseAt' | 'expiresAt'> {
  const errors: Errors<'releaseAt' | 'expiresAt'> = {};
  const release = localToIso(releaseAt);
  const expires = localToIso(expiresAt);
  if (releaseAt.trim() && !release) errors.releaseAt = 'Enter a valid date and time.';
  if (expiresAt.trim() && !expires) errors.expiresAt = 'Enter a valid date and time.';
  if (expires) {
    const start = release ? Date.parse(release) : now;
    if (Date.parse(expires) <= start) {
      errors.expiresAt = release ? 'The expiry must be after the release.' : 'The expiry must be in the future.';
    }
  }
  return errors;
}

/** Comma- or line-separated ids as a list. */
export function splitList(value: string): string[] {
  return value
    .split(/[,\n]/)
    .map((v) => v.trim())
    .filter(Boolean);
}

export interface UploadForm {
  file: File | null;
  title: string;
  audience: Audience;
  labels: LabelKey[];
  releaseAt: string;
  expiresAt: string;
  note: string;
  category: string;
  products: string;
  programmes: string;
}

export const EMPTY_UPLOAD: UploadForm = {
  file: null,
  title: '',
  audience: 'all',
  labels: [],
  releaseAt: '',
  expiresAt: '',
  note: '',
  category: '',
  products: '',
  programmes: '',
};

export type UploadField = 'file' | 'title' | 'releaseAt' | 'expiresAt';

export function validateUpload(form: UploadForm, now = Date.now()): Errors<UploadField> {
  const errors: Errors<UploadField> = { ...scheduleProblems(form.releaseAt, form.expiresAt, now) };
  const file = fileProblem(form.file);
  if (file) errors.file = file;
  if (!form.title.trim()) errors.title = 'Enter a title.';
  return errors;
}

/** The multipart body of `POST /admin/library`. */
export function uploadBody(form: UploadForm): FormData {
  const body = new FormData();
  if (form.file) body.append('file', form.file, form.file.name);
  body.append('title', form.title.trim());
  body.append('audience', form.audience);
  for (const label of form.labels) body.append('labels', label);
  const release = localToIso(form.releaseAt);
  const expires = localToIso(form.expiresAt);
  if (release) body.append('release_at', release);
  if (expires) body.append('expires_at', expires);
  for (const product of splitList(form.products)) body.append('products', product);
  for (const programme of splitList(form.programmes)) body.append('programmes', programme);
  if (form.category.trim()) body.append('category', form.category.trim());
  if (form.note.trim()) body.append('note', form.note.trim());
  return body;
}

/** The multipart body of `POST /admin/library/{id}/versions`. */
export function versionBody(file: File, note: string): FormData {
  const body = new FormData();
  body.append('file', file, file.name);
  if (note.trim()) body.append('note', note.trim());
  return body;
}

/** A withdrawal needs a reason; a replacement is optional and never the document itself. */
export function validateWithdrawal(
  reason: string,
  replacement: number | null,
  self: number,
): Errors<'reason' | 'replacement'> {
  const errors: Errors<'reason' | 'replacement'> = {};
  if (!reason.trim()) errors.reason = 'Say why the document is withdrawn.';
  if (replacement !== null && replacement === self) errors.replacement = 'A document cannot replace itself.';
  return errors;
}

/** A rejection says why; an approval may go without a comment. */
export function validateDecision(kind: 'approve' | 'reject', comment: string): Errors<'comment'> {
  return kind === 'reject' && !comment.trim() ? { comment: 'Say what must change.' } : {};
}

export interface NewsForm {
  title: string;
  category: string;
  /** `yyyy-mm-dd`, or ''. */
  date: string;
  preview: string;
  bodyHtml: string;
  image: string;
  releaseAt: string;
  expiresAt: string;
}

export const EMPTY_NEWS: NewsForm = {
  title: '',
  category: '',
  date: '',
  preview: '',
  bodyHtml: '',
  image: '',
  releaseAt: '',
  expiresAt: '',
};

export type NewsField = 'title' | 'category' | 'bodyHtml' | 'releaseAt' | 'expiresAt' | 'date';

/** Text of an HTML fragment, for the 'is the body empty' check. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .trim();
}

export function validateNews(form: NewsForm, now = Date.now()): Errors<NewsField> {
  const errors: Errors<NewsField> = { ...scheduleProblems(form.releaseAt, form.expiresAt, now) };
  if (!form.title.trim()) errors.title = 'Enter a title.';
  if (!form.category.trim()) errors.category = 'Enter a category.';
  if (!textOf(form.bodyHtml)) errors.bodyHtml = 'Write the news.';
  if (form.date.trim() && !/^\d{4}-\d{2}-\d{2}$/.test(form.date.trim())) errors.date = 'Enter a valid date.';
  return errors;
}

/** The JSON body of `POST /admin/news` and `PATCH /admin/news/{id}`; empty optional fields are left out. */
export function newsBody(form: NewsForm): NewsDraft {
  const optional = (value: string) => (value.trim() ? value.trim() : undefined);
  return {
    title: form.title.trim(),
    category: form.category.trim(),
    date: optional(form.date),
    preview: optional(form.preview),
    body_html: form.bodyHtml,
    image: optional(form.image),
    release_at: localToIso(form.releaseAt),
    expires_at: localToIso(form.expiresAt),
  };
}

/** The editable details of a library document (`PATCH /admin/library/{id}`), as the form holds them. */
export interface MetadataForm {
  title: string;
  audience: Audience;
  labels: LabelKey[];
  releaseAt: string;
  expiresAt: string;
  products: string;
  programmes: string;
}

export function metadataForm(doc: {
  title: string;
  audience: Audience;
  labels: LabelKey[];
  products: string[];
  programmes: string[];
  releaseAtMs: number | null;
  expiresAtMs: number | null;
}): MetadataForm {
  return {
    title: doc.title,
    audience: doc.audience,
    labels: [...doc.labels],
    releaseAt: toLocalInput(doc.releaseAtMs),
    expiresAt: toLocalInput(doc.expiresAtMs),
    products: doc.products.join(', '),
    programmes: doc.programmes.join(', '),
  };
}

export function validateMetadata(form: MetadataForm, now = Date.now()): Errors<'title' | 'releaseAt' | 'expiresAt'> {
  const errors: Errors<'title' | 'releaseAt' | 'expiresAt'> = {
    ...scheduleProblems(form.releaseAt, form.expiresAt, now),
  };
  if (!form.title.trim()) errors.title = 'Enter a title.';
  return errors;
}

/** Every detail, cleared times as `null` (the document then releases on approval, never expires). */
export function metadataBody(form: MetadataForm): LibraryMetadata {
  return {
    title: form.title.trim(),
    audience: form.audience,
    labels: form.labels,
    products: splitList(form.products),
    programmes: splitList(form.programmes),
    release_at: localToIso(form.releaseAt) ?? null,
    expires_at: localToIso(form.expiresAt) ?? null,
  };
}
