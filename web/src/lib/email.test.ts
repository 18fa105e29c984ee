import { describe, expect, it } from 'vitest';
import { checkEmail, isValidEmail } from './email';

describe('isValidEmail (the server check)', () => {
  it.each(['anna.rossi@example.com', 'a+tag@sub.example.co.uk', 'x@y.z'])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    '',
    'anna',
    'anna@',
    '@example.com',
    'anna@example',
    'anna rossi@example.com',
    'anna@@example.com',
    'anna@example..com',
    'anna@.example.com',
    'anna@example.com.',
    'anna@exa\tmple.com',
    `${'a'.repeat(250)}@x.io`,
  ])('refuses %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

describe('checkEmail (as it is typed)', () => {
  it('tells nothing typed, not yet an address and an address apart', () => {
    expect(checkEmail('   ')).toBe('empty');
    expect(checkEmail('anna.rossi@')).toBe('incomplete');
    expect(checkEmail('anna.rossi@example')).toBe('incomplete');
    expect(checkEmail(' anna.rossi@example.com ')).toBe('valid');
  });
});
