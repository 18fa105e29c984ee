import { describe, expect, it } from 'vitest';
import { isSharedLinkPath } from './shared-link';

describe('isSharedLinkPath', () => {
  it('recognises the recipient page of a link and nothing else', () => {
    expect(isSharedLinkPath('/s/abcDEF_-123')).toBe(true);
    expect(isSharedLinkPath('/s/abc/')).toBe(true);
    expect(isSharedLinkPath('/s/')).toBe(false);
    expect(isSharedLinkPath('/s/abc/file')).toBe(false);
    expect(isSharedLinkPath('/documents')).toBe(false);
    expect(isSharedLinkPath('/search/s/abc')).toBe(false);
  });
});
