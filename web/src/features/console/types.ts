/**
 * Shapes of the content console's API (`/api/admin/library…`, `/api/admin/news…`), written by hand
 * after the content lifecycle's HTTP contract.
 */

/** Lifecycle state of a document or news item, as the API words it. */
export type ContentStatus = 'draft' | 'in_review' | 'approved' | 'released' | 'expired' | 'withdrawn';

/** What the list's status filter asks for: a state, or `expiring` (released, expiring within 30 days). */
export type StatusFilter = '' | 'draft' | 'in_review' | 'released' | 'expiring' | 'expired' | 'withdrawn';

export type Audience = 'all' | 'us';

export type LabelKey = 'for_internal_use' | 'controlled_release' | 'upon_request';

/** Times arrive as RFC 3339 text or milliseconds; `null` when unset. */
export type Instant = string | number | null;

export interface Person {
  id: string | number;
  name: string;
}

export interface Replacement {
  id: number;
  title: string;
  url?: string | null;
}

export interface LibraryWithdrawal {
  at: Instant;
  by?: Person | null;
  reason: string;
  replacement: Replacement | null;
  state?: 'withdrawn' | 'expired';
}

export interface LibraryAdminItem {
  id: number;
  title: string;
  status: ContentStatus;
  version: number;
  released_version: number | null;
  audience: Audience;
  labels: LabelKey[];
  products: string[];
  programmes: string[];
  category: string | null;
  release_at: Instant;
  expires_at: Instant;
  updated_at: Instant;
  author: Person | null;
  withdrawn: LibraryWithdrawal | null;
}

export interface LibraryVersion {
  version: number;
  file_name: string;
  size: number;
  note: string | null;
  author: Person | null;
  uploaded_at: Instant;
  status: ContentStatus;
  submitted_at: Instant;
  decided_by: Person | null;
  decided_at: Instant;
  comment: string | null;
  released_at: Instant;
}

export interface LibraryDetail extends LibraryAdminItem {
  versions: LibraryVersion[];
}

export interface HistoryEntry {
  at: Instant;
  actor: Person | null;
  action: string;
  detail: string | null;
}

export type HolderHow = 'opened' | 'downloaded' | 'saved' | 'pinned_offline' | 'shared' | 'sent_externally';

export interface HolderDevice {
  device: string;
  name: string | null;
  purged_at: Instant;
}

export interface ReportHolder {
  user: { id: string | number; name: string; email: string };
  how: HolderHow[];
  devices: HolderDevice[];
}

export interface WithdrawalReport {
  id: number;
  title: string;
  state: 'withdrawn' | 'expired';
  at: Instant;
  reason: string;
  replacement: Replacement | null;
  holders: ReportHolder[];
}

/** The answer of every lifecycle step (`submit`, `approve`, …). */
export interface LifecycleAnswer {
  id: number;
  version: number;
  status?: ContentStatus;
}

export interface LibraryMetadata {
  title?: string;
  labels?: LabelKey[];
  audience?: Audience;
  products?: string[];
  programmes?: string[];
  release_at?: string | null;
  expires_at?: string | null;
}

export interface NewsAdminItem {
  id: number;
  title: string;
  category: string;
  status: ContentStatus;
  version: number;
  release_at: Instant;
  expires_at: Instant;
  updated_at: Instant;
  author: Person | null;
}

export interface NewsVersion {
  version: number;
  author: Person | null;
  status: ContentStatus;
  submitted_at?: Instant;
  decided_by?: Person | null;
  decided_at?: Instant;
  comment?: string | null;
  released_at?: Instant;
  created_at?: Instant;
}

export interface NewsDetail extends NewsAdminItem {
  date?: string | null;
  preview?: string | null;
  image?: string | null;
  body_html: string;
  versions: NewsVersion[];
}

/** The body of `POST /admin/news` and `PATCH /admin/news/{id}`. */
export interface NewsDraft {
  title: string;
  category: string;
  date?: string;
  preview?: string;
  body_html: string;
  image?: string;
  release_at?: string;
  expires_at?: string;
}
