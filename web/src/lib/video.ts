/** Where videos known by a code (or by the last part of their address) are played. */
export const VIDEO_EMBED_BASE = 'https://video.example.com/embed';

export interface VideoSource {
  code?: string | null;
  url?: string | null;
}

export type ResolvedVideo =
  /** An embedded player page (iframe). */
  | { kind: 'embed'; id: string | null; src: string }
  /** A video file the browser plays itself. */
  | { kind: 'file'; id: null; src: string };

const FILE_RE = /\.(mp4|webm|ogg|m3u8)(\?|#|$)/i;

/** The last non-empty path part of an address, without query or fragment. */
export function lastPathPart(url: string): string | null {
  const path = url.split(/[?#]/)[0] ?? '';
  const parts = path.split('/').filter(Boolean);
  const last = parts[parts.length - 1];
  return last && !last.includes(':') ? decodeURIComponent(last) : null;
}

/**
 * How to play a video (spec 2.12): by its code; else by its direct url (a video
 * file, or an address that is already an embed player); else by the last path
 * part of the url, taken as the video's code.
 */
export function resolveVideo(video: VideoSource): ResolvedVideo | null {
  const code = video.code?.trim();
  if (code) return { kind: 'embed', id: code, src: `${VIDEO_EMBED_BASE}/${encodeURIComponent(code)}` };
  const url = video.url?.trim();
  if (!url) return null;
  if (FILE_RE.test(url)) return { kind: 'file', id: null, src: url };
  if (/\/embed\//.test(url)) return { kind: 'embed', id: lastPathPart(url), src: url };
  const id = lastPathPart(url);
  if (!id) return null;
  return { kind: 'embed', id, src: `${VIDEO_EMBED_BASE}/${encodeURIComponent(id)}` };
}

/** An HLS stream (`.m3u8`), which most browsers other than Safari only play through hls.js. */
export function isHlsStream(url: string): boolean {
  return /\.m3u8(\?|#|$)/i.test(url);
}
