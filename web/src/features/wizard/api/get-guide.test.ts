import { describe, expect, it } from 'vitest';
import { startStep, type GuideStep } from './get-guide';

const step = (screen: string): GuideStep => ({ screen, title: screen, text: 'x', path: `/${screen}` });

describe('guided tour', () => {
  it("starts at the asking screen's step, else at the first", () => {
    const steps = [step('home'), step('products'), step('documents')];
    expect(startStep(steps, 'documents')).toBe(2);
    expect(startStep(steps, 'unknown')).toBe(0);
    expect(startStep(steps, null)).toBe(0);
    expect(startStep([], 'home')).toBe(0);
  });
});
