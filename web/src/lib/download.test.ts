import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from './download';

describe('fileNameFromDisposition', () => {
  it('reads quoted and plain names', () => {
    expect(fileNameFromDisposition('attachment; filename="alpine-meeting.ics"')).toBe('alpine-meeting.ics');
    expect(fileNameFromDisposition('attachment; filename=list.csv')).toBe('list.csv');
  });
  it('prefers the encoded name', () => {
    expect(fileNameFromDisposition('attachment; filename="a.ics"; filename*=UTF-8\'\'caf%C3%A9.ics')).toBe('café.ics');
  });
  it('gives null without a name', () => {
    expect(fileNameFromDisposition(null)).toBeNull();
    expect(fileNameFromDisposition('inline')).toBeNull();
  });
});
