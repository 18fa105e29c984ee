/**
 * The wire format of `GET /api/ws` (see docs/realtime.md and the OpenAPI document).
 */

/** Server -> client. */
export type ServerMessage =
  | { type: 'message'; seq: number; kind: string; payload: unknown; at: number }
  /** The same for every user; `seq` numbers the broadcast stream, independent of the user's feed. */
  | { type: 'broadcast'; seq: number; kind: string; payload: unknown; at: number }
  /** `broadcast_seq` is absent from servers without the broadcast stream. */
  | { type: 'ready'; seq: number; broadcast_seq?: number; epoch: string }
  | { type: 'reload' }
  | { type: 'ping' };

/** Client -> server. */
export type ClientMessage =
  { type: 'auth'; token: string; last_seq?: number; last_broadcast_seq?: number; epoch?: string } | { type: 'pong' };

/** Close codes the server uses. */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  serverError: 1011,
  slow: 1013,
  badRequest: 4400,
  unauthorized: 4401,
  /** The current terms are not accepted yet: reconnects later, as after any other close. */
  termsRequired: 4403,
  timeout: 4408,
} as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Parses a frame; anything malformed or unknown is `null` (and ignored). */
export function parseServerMessage(data: unknown): ServerMessage | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  switch (value.type) {
    case 'message':
    case 'broadcast':
      if (typeof value.seq !== 'number' || typeof value.kind !== 'string') return null;
      return {
        type: value.type,
        seq: value.seq,
        kind: value.kind,
        payload: value.payload,
        at: typeof value.at === 'number' ? value.at : 0,
      };
    case 'ready':
      if (typeof value.seq !== 'number' || typeof value.epoch !== 'string') return null;
      return typeof value.broadcast_seq === 'number'
        ? { type: 'ready', seq: value.seq, broadcast_seq: value.broadcast_seq, epoch: value.epoch }
        : { type: 'ready', seq: value.seq, epoch: value.epoch };
    case 'reload':
      return { type: 'reload' };
    case 'ping':
      return { type: 'ping' };
    default:
      return null;
  }
}
