import { describe, expect, it } from 'vitest';
import {
  clampZoom,
  MAX_ZOOM,
  MIN_ZOOM,
  pinchScale,
  touchDistance,
  wheelZoomed,
  zoomedIn,
  zoomedOut,
  ZOOM_STEP,
} from './zoom';

describe('PDF viewer zoom', () => {
  it('stays within the limits', () => {
    expect(clampZoom(0.1)).toBe(MIN_ZOOM);
    expect(clampZoom(10)).toBe(MAX_ZOOM);
    expect(clampZoom(1.5)).toBe(1.5);
  });

  it('steps in and out by a quarter, up to the limits', () => {
    expect(zoomedIn(1)).toBe(ZOOM_STEP);
    expect(zoomedOut(ZOOM_STEP)).toBe(1);
    expect(zoomedIn(3.5)).toBe(MAX_ZOOM);
    expect(zoomedOut(0.6)).toBe(MIN_ZOOM);
  });

  it('zooms in when the wheel goes up and out when it goes down', () => {
    expect(wheelZoomed(1, 0)).toBe(1);
    expect(wheelZoomed(1, -300)).toBeCloseTo(Math.E);
    expect(wheelZoomed(2, 150)).toBeCloseTo(2 / Math.sqrt(Math.E));
    expect(wheelZoomed(1, 3000)).toBe(MIN_ZOOM);
  });

  it('measures the distance between the first two fingers', () => {
    const finger = (clientX: number, clientY: number) => ({ clientX, clientY });
    expect(touchDistance([finger(0, 0), finger(30, 40)])).toBe(50);
    expect(touchDistance([finger(0, 0), finger(3, 4), finger(100, 100)])).toBe(5);
    expect(touchDistance([finger(0, 0)])).toBe(0);
    expect(touchDistance([])).toBe(0);
  });

  it('scales a pinch by how far the fingers moved apart, within the limits of the zoom', () => {
    expect(pinchScale(1, 100, 200)).toBe(2);
    expect(pinchScale(2, 100, 50)).toBe(0.5);
    // From 2, the fingers ask for 8: the zoom stops at 4, so the pages are drawn twice as large.
    expect(pinchScale(2, 100, 400)).toBe(MAX_ZOOM / 2);
    expect(pinchScale(1, 100, 10)).toBe(MIN_ZOOM);
  });
});
