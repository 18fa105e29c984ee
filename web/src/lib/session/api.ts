import { api } from '../api/client';
import type { SessionResponse, User } from './types';

export const sessionApi = {
  /** Password login. A 401 here means wrong credentials, not an expired session. */
  login: (username: string, password: string) =>
    api.post<SessionResponse>('/users/login', { username, password }, { allowUnauthorized: true }),
  /** Session restore with the stored token. */
  welcome: () => api.post<SessionResponse>('/users/welcome'),
  /**
   * Single sign-on return: exchanges the single-use code of `/login?token=...`
   * for a session. A 401 means the sign-in failed, not that a session expired.
   */
  exchangeSsoCode: (code: string) =>
    api.post<SessionResponse>('/users/sso/exchange', { code }, { allowUnauthorized: true }),
  /** Ends the session on the server; a 401 means it had ended already. */
  logout: () => api.post<{ result: boolean }>('/users/logout', undefined, { allowUnauthorized: true }),
  getData: () => api.get<User>('/users/get-data'),
};
