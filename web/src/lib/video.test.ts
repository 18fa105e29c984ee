import { describe, expect, it } from 'vitest';
import { isHlsStream, lastPathPart, resolveVideo, VIDEO_EMBED_BASE } from './video';

describe('resolveVideo', () => {
  it('plays by code first', () => {
    expect(resolveVideo({ code: 'mv26011x', url: 'https://video.example.com/watch/other' })).toEqual({
      kind: 'embed',
      id: 'mv26011x',
      src: `${VIDEO_EMBED_BASE}/mv26011x`,
    });
  });
  it('plays a direct url: a file or an embed address', () => {
    expect(resolveVideo({ url: 'https://cdn.example.com/v/clip.mp4' })).toEqual({
      kind: 'file',
      id: null,
      src: 'https://cdn.example.com/v/clip.mp4',
    });
    expect(resolveVideo({ code: null, url: 'https://video.example.com/embed/mo101int?autoplay=0' })).toEqual({
      kind: 'embed',
      id: 'mo101int',
      src: 'https://video.example.com/embed/mo101int?autoplay=0',
    });
  });
  it('otherwise uses the last path part of the url as the code', () => {
    expect(resolveVideo({ url: 'https://video.example.com/watch/mv26021x/' })).toEqual({
      kind: 'embed',
      id: 'mv26021x',
      src: `${VIDEO_EMBED_BASE}/mv26021x`,
    });
    expect(resolveVideo({ url: 'https://video.example.com/watch/mv1?t=3#x' })?.id).toBe('mv1');
  });
  it('gives nothing without code or usable url', () => {
    expect(resolveVideo({})).toBeNull();
    expect(resolveVideo({ code: '  ', url: '' })).toBeNull();
    expect(resolveVideo({ url: 'https://' })).toBeNull();
  });
});

describe('lastPathPart', () => {
  it('ignores query, fragment and trailing slashes', () => {
    expect(lastPathPart('https://a.example/x/y/?q=1')).toBe('y');
    expect(lastPathPart('/only')).toBe('only');
    expect(lastPathPart('')).toBeNull();
  });
});

describe('isHlsStream', () => {
  it('recognises .m3u8 playlists, with or without a query', () => {
    expect(isHlsStream('https://cdn.example.com/live/master.m3u8')).toBe(true);
    expect(isHlsStream('/media/v/index.M3U8?token=1')).toBe(true);
    expect(isHlsStream('https://cdn.example.com/clip.mp4')).toBe(false);
    expect(isHlsStream('https://cdn.example.com/m3u8/clip.mp4')).toBe(false);
  });
});
