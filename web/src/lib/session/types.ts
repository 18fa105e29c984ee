export type Role = 'user' | 'admin' | 'auditor' | 'publisher' | 'approver';

export interface User {
  id: number | string;
  email: string;
  first_name: string;
  last_name: string;
  /** e.g. "US" for a user certified for the US market. */
  certificate: string | null;
  /** Teams id, as a string. */
  teams: string | null;
  role: Role;
  /** Whether the US documents (tab and home section) are shown. */
  show_us: boolean;
}

/** Answer of the login call and of the token session restore (`welcome`). */
export interface SessionResponse {
  user: User;
  /** Terms must be accepted when this is true or missing. */
  need_accept_terms?: boolean | null;
  /** true: the user must see the onboarding slides. */
  onboarding?: boolean | null;
  push?: boolean | null;
  /** A pending app-update notice. */
  update_id?: number | null;
  jwt?: string;
}
