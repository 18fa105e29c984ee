import { api } from '../api/client';
import type { SessionResponse, User } from './types';

export const sessionApi = {
  /** Password login. A 401 here means wrong credentials, not an expired session. */
  login: (username: string, password: string) =>
    api.post<SessionResponse>('/users/login', { username, password }, { allowUnauthorized: true }),
  /** Session restore with the stored token. */
  welcome: () => api.post<SessionResponse>('/users/welcome'),
  /**
   * Session restore with a token just received (single sign-on return): a 401
   * means the sign-in failed, not that a running session expired.
   */
  welcomeWithNewToken: () => api.post<SessionResponse>('/users/welcome', undefined, { allowUnauthorized: true }),
  getData: () => api.get<User>('/users/get-data'),
};
