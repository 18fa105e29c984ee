/**
 * Reconnect delays: exponential, capped, with jitter so that thousands of
 * clients dropped by one server restart do not come back in the same instant.
 */
export interface BackoffOptions {
  /** Delay of the first retry before jitter, in ms. */
  baseMs: number;
  /** Upper bound of any delay, in ms. */
  maxMs: number;
  factor: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 30_000, factor: 2 };

/**
 * The delay before retry number `attempt` (0 for the first): a random value in
 * the upper half of the exponential step ("equal jitter"), so it grows for sure
 * while staying spread out. `random` returns [0, 1).
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const step = Math.min(options.maxMs, options.baseMs * Math.pow(options.factor, Math.max(0, attempt)));
  const half = step / 2;
  return Math.round(half + random() * half);
}
