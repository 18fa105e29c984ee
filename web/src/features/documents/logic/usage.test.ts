import { describe, expect, it } from 'vitest';
import { humanSize, usageLabel, usagePercent } from './usage';

const MB = 1024 * 1024;

describe('storage usage', () => {
  it('reads sizes as the server words them', () => {
    expect(humanSize(0)).toBe('0 B');
    expect(humanSize(1023)).toBe('1023 B');
    expect(humanSize(1536)).toBe('1.5 KB');
    expect(humanSize(MB - 20)).toBe('1 MB');
    expect(humanSize(1946 * MB)).toBe('1.9 GB');
    expect(humanSize(2048 * MB)).toBe('2 GB');
  });

  it('says what is used of what', () => {
    expect(usageLabel(1_288_490_189, 2048 * MB)).toBe('1.2 GB of 2 GB used');
  });

  it('fills the bar by the share used', () => {
    expect(usagePercent(0, 2048 * MB)).toBe(0);
    expect(usagePercent(10, 2048 * MB)).toBe(1);
    expect(usagePercent(1024 * MB, 2048 * MB)).toBe(50);
    expect(usagePercent(3000 * MB, 2048 * MB)).toBe(100);
  });
});
