import { describe, expect, it } from 'vitest';
import { canvasRatio, fitScale, MAX_CANVAS_PIXELS } from './geometry';

describe('PDF page geometry', () => {
  it('fits a page to the width once the width is known', () => {
    expect(fitScale(300, { width: 600, height: 800 })).toBe(0.5);
    expect(fitScale(0, { width: 600, height: 800 })).toBe(1);
  });

  it("draws at the screen's pixel density, 1 when the browser gives none", () => {
    expect(canvasRatio(3, 400, 600)).toBe(3);
    expect(canvasRatio(0, 400, 600)).toBe(1);
  });

  it('lowers the density of a canvas that would be too large', () => {
    const ratio = canvasRatio(3, 2000, 3000);
    expect(ratio).toBeLessThan(3);
    expect(2000 * ratio * 3000 * ratio).toBeCloseTo(MAX_CANVAS_PIXELS);
  });
});
