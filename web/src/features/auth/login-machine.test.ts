import { describe, expect, it } from 'vitest';
import {
  initialLoginState,
  isValidEmail,
  loginReducer,
  stepLabel,
  type LoginEvent,
  type LoginState,
} from './login-machine';

const run = (events: LoginEvent[], from: LoginState = initialLoginState) => events.reduce(loginReducer, from);

describe('login steps', () => {
  it('starts on step 1 with an empty e-mail', () => {
    expect(initialLoginState.step).toBe('email');
    expect(stepLabel(initialLoginState.step)).toBe('Step 1/2');
  });

  it('moves to the password step when the domain is not single sign-on', () => {
    const state = run([
      { type: 'emailChanged', email: 'anna.rossi@example.com' },
      { type: 'checkStarted' },
      { type: 'checkSucceeded', azure: false, source: null },
    ]);
    expect(state).toMatchObject({ step: 'password', email: 'anna.rossi@example.com', busy: false });
    expect(stepLabel(state.step)).toBe('Step 2/2');
  });

  it('moves to the single sign-on step with the source of the check', () => {
    const state = run([
      { type: 'emailChanged', email: 'x@sso.example.com' },
      { type: 'checkStarted' },
      { type: 'checkSucceeded', azure: true, source: 'azure' },
    ]);
    expect(state).toMatchObject({ step: 'sso', source: 'azure' });
    expect(stepLabel(state.step)).toBe('Step 2/2');
  });

  it('defaults the single sign-on source when the server gives none', () => {
    const state = run([{ type: 'checkSucceeded', azure: true, source: null }]);
    expect(state.source).toBe('azure');
  });

  it('stays on step 1 when the domain check fails', () => {
    const state = run([{ type: 'emailChanged', email: 'a@b.co' }, { type: 'checkStarted' }, { type: 'checkFailed' }]);
    expect(state).toMatchObject({ step: 'email', email: 'a@b.co', busy: false });
  });

  it('ignores a second check while one is running', () => {
    const busy = run([{ type: 'checkStarted' }]);
    expect(loginReducer(busy, { type: 'checkStarted' })).toBe(busy);
  });

  it('keeps the e-mail but clears the password when going back to step 1', () => {
    const state = run([
      { type: 'emailChanged', email: 'anna.rossi@example.com' },
      { type: 'checkSucceeded', azure: false, source: null },
      { type: 'passwordChanged', password: 'secret' },
      { type: 'back' },
    ]);
    expect(state).toEqual({ ...initialLoginState, email: 'anna.rossi@example.com' });
  });

  it('goes back to step 1 from single sign-on', () => {
    const state = run([{ type: 'checkSucceeded', azure: true, source: 'azure' }, { type: 'back' }]);
    expect(state.step).toBe('email');
    expect(state.source).toBeNull();
  });

  it('clears the password after a failed sign-in and stays on step 2', () => {
    const state = run([
      { type: 'checkSucceeded', azure: false, source: null },
      { type: 'passwordChanged', password: 'wrong' },
      { type: 'signInStarted' },
      { type: 'signInFailed' },
    ]);
    expect(state).toMatchObject({ step: 'password', password: '', busy: false });
  });

  it('only signs in from the password step', () => {
    expect(loginReducer(initialLoginState, { type: 'signInStarted' })).toBe(initialLoginState);
  });

  it('does not change the e-mail once on step 2', () => {
    const step2 = run([
      { type: 'emailChanged', email: 'a@b.co' },
      { type: 'checkSucceeded', azure: false, source: null },
    ]);
    expect(loginReducer(step2, { type: 'emailChanged', email: 'other@b.co' }).email).toBe('a@b.co');
  });

  it('marks the single sign-on redirect as busy', () => {
    const state = run([{ type: 'checkSucceeded', azure: true, source: 'azure' }, { type: 'ssoStarted' }]);
    expect(state.busy).toBe(true);
  });
});

describe('isValidEmail', () => {
  it.each(['anna.rossi@example.com', 'x@sso.example.com', ' a@b.co '])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });
  it.each(['', 'anna', 'anna@', '@example.com', 'a b@c.d', 'a@b'])('rejects %s', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});
