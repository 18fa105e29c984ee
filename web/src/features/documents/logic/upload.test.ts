import { describe, expect, it } from 'vitest';
import { canUpload, isAcceptedFile, prefillName } from './upload';

const pdf = { name: 'report.pdf', type: 'application/pdf' };
const xls = { name: 'accounts.xls', type: 'application/vnd.ms-excel' };

describe('upload checks', () => {
  it('accepts PDF and XLS by type or, without a type, by extension', () => {
    expect(isAcceptedFile(pdf)).toBe(true);
    expect(isAcceptedFile(xls)).toBe(true);
    expect(isAcceptedFile({ name: 'REPORT.PDF', type: '' })).toBe(true);
    expect(isAcceptedFile({ name: 'a.xls', type: 'application/octet-stream' })).toBe(true);
  });

  it('refuses anything else', () => {
    expect(isAcceptedFile({ name: 'setup.exe', type: 'application/x-msdownload' })).toBe(false);
    expect(
      isAcceptedFile({ name: 'sheet.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
    ).toBe(false);
    expect(isAcceptedFile({ name: 'photo.pdf', type: 'image/png' })).toBe(false);
    expect(isAcceptedFile({ name: 'noext', type: '' })).toBe(false);
  });

  it('needs a name and a file', () => {
    expect(canUpload('Report', pdf)).toBe(true);
    expect(canUpload('  ', pdf)).toBe(false);
    expect(canUpload('Report', null)).toBe(false);
    expect(canUpload('Setup', { name: 'setup.exe', type: '' })).toBe(false);
  });

  it('pre-fills an empty name with the file name', () => {
    expect(prefillName('', pdf)).toBe('report.pdf');
    expect(prefillName('  ', pdf)).toBe('report.pdf');
    expect(prefillName('Mine', pdf)).toBe('Mine');
    expect(prefillName('', null)).toBe('');
  });
});
