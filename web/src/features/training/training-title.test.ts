import { describe, expect, it } from 'vitest';
import { trainingTitle } from './training-title';

describe('trainingTitle', () => {
  it("uses the name, else 'Training details'", () => {
    expect(trainingTitle({ name: 'Knee & Hip Product Bootcamp' })).toBe('Knee & Hip Product Bootcamp');
    expect(trainingTitle({ title: 'Spine', name: 'x' })).toBe('Spine');
    expect(trainingTitle({ name: ' ' })).toBe('Training details');
    expect(trainingTitle(undefined)).toBe('Training details');
  });
});
