/** Shapes of the auditor's API (`/api/audit/...`, `/api/items/{id}/access-as-of`). */

import type { components } from '@/lib/api/schema';

type Schemas = components['schemas'];

export type AuditItem = Schemas['AuditItem'];
export type AuditPerson = Schemas['AuditPerson'];
export type ActivityEntry = Schemas['AuditActivityEntry'];
export type ActivityPage = Schemas['AuditActivityPage'];
export type AccessAsOf = Schemas['AccessAsOf'];

/** The filters of the item search, as the form holds them. */
export interface ItemFilters {
  q: string;
  owner: string;
  /** '' (any), folder, file, pdf or xls. */
  type: string;
  /** '' (both), 'deleted' or 'current'. */
  status: string;
  /** Which time the dates bound: created, changed or deleted. */
  date: string;
  /** `yyyy-mm-dd` of a date input, or ''. */
  from: string;
  to: string;
}

/** The filters of the activity, as the form holds them. */
export interface ActivityFilters {
  user: string;
  action: string;
  /** `yyyy-mm-ddThh:mm` of a datetime-local input, or ''. */
  from: string;
  to: string;
}
