import { describe, expect, it } from 'vitest';
import {
  EMPTY_NEWS,
  EMPTY_UPLOAD,
  fileProblem,
  hasErrors,
  metadataBody,
  metadataForm,
  newsBody,
  splitList,
  uploadBody,
  UPLOAD_MAX_BYTES,
  validateDecision,
  validateMetadata,
  validateNews,
  validateUpload,
  validateWithdrawal,
  versionBody,
} from './forms';

const NOW = new Date(2026, 2, 1, 12, 0).getTime();

function pdf(name = 'ifu.pdf', size = 10): File {
  return new File([new Uint8Array(size)], name, { type: 'application/pdf' });
}

describe('upload form', () => {
  it('asks for a file, a title, and only PDF or XLS within the limit', () => {
    const errors = validateUpload(EMPTY_UPLOAD, NOW);
    expect(errors.file).toBe('Choose a file.');
    expect(errors.title).toBe('Enter a title.');
    expect(fileProblem({ name: 'notes.docx', size: 5 })).toBe('Only PDF and XLS files can be uploaded.');
    expect(fileProblem({ name: 'sizes.XLS', size: 5 })).toBeNull();
    expect(fileProblem({ name: 'empty.pdf', size: 0 })).toBe('This file is empty.');
    expect(fileProblem({ name: 'big.pdf', size: UPLOAD_MAX_BYTES + 1 })).toBe('The file is larger than 20.0 MB.');
    expect(hasErrors(validateUpload({ ...EMPTY_UPLOAD, file: pdf(), title: 'IFU' }, NOW))).toBe(false);
  });

  it('wants the expiry after the release, or after now without one', () => {
    const form = { ...EMPTY_UPLOAD, file: pdf(), title: 'IFU' };
    expect(
      validateUpload({ ...form, releaseAt: '2026-04-01T09:00', expiresAt: '2026-04-01T09:00' }, NOW).expiresAt,
    ).toBe('The expiry must be after the release.');
    expect(validateUpload({ ...form, expiresAt: '2026-02-01T09:00' }, NOW).expiresAt).toBe(
      'The expiry must be in the future.',
    );
    expect(validateUpload({ ...form, releaseAt: 'tomorrow' }, NOW).releaseAt).toBe('Enter a valid date and time.');
    expect(
      hasErrors(validateUpload({ ...form, releaseAt: '2026-04-01T09:00', expiresAt: '2027-04-01T09:00' }, NOW)),
    ).toBe(false);
  });

  it('sends the fields of the contract, repeated where they are lists', () => {
    const body = uploadBody({
      ...EMPTY_UPLOAD,
      file: pdf(),
      title: ' IFU knee ',
      audience: 'us',
      labels: ['for_internal_use', 'upon_request'],
      releaseAt: '2026-04-01T09:00',
      products: 'p1, p2',
      note: ' first ',
    });
    expect(body.get('title')).toBe('IFU knee');
    expect(body.get('audience')).toBe('us');
    expect(body.getAll('labels')).toEqual(['for_internal_use', 'upon_request']);
    expect(body.getAll('products')).toEqual(['p1', 'p2']);
    expect(body.get('release_at')).toBe(new Date(2026, 3, 1, 9, 0).toISOString());
    expect(body.has('expires_at')).toBe(false);
    expect(body.has('category')).toBe(false);
    expect(body.get('note')).toBe('first');
    expect((body.get('file') as File).name).toBe('ifu.pdf');
  });

  it('sends a version with its note', () => {
    const body = versionBody(pdf('v2.pdf'), '');
    expect((body.get('file') as File).name).toBe('v2.pdf');
    expect(body.has('note')).toBe(false);
    expect(splitList('a,\n b ,,c')).toEqual(['a', 'b', 'c']);
  });
});

describe('decisions and withdrawals', () => {
  it('needs a reason and never replaces a document with itself', () => {
    expect(validateWithdrawal(' ', null, 7).reason).toBe('Say why the document is withdrawn.');
    expect(validateWithdrawal('Recalled', 7, 7).replacement).toBe('A document cannot replace itself.');
    expect(hasErrors(validateWithdrawal('Recalled', 8, 7))).toBe(false);
  });

  it('needs a comment to reject, not to approve', () => {
    expect(validateDecision('reject', '').comment).toBe('Say what must change.');
    expect(hasErrors(validateDecision('approve', ''))).toBe(false);
  });
});

describe('news form', () => {
  it('needs a title, a category and a body with text', () => {
    const errors = validateNews({ ...EMPTY_NEWS, bodyHtml: '<p><br></p>' }, NOW);
    expect(errors).toMatchObject({
      title: 'Enter a title.',
      category: 'Enter a category.',
      bodyHtml: 'Write the news.',
    });
    expect(validateNews({ ...EMPTY_NEWS, date: '1/3/2026' }, NOW).date).toBe('Enter a valid date.');
    expect(hasErrors(validateNews({ ...EMPTY_NEWS, title: 'T', category: 'Events', bodyHtml: '<p>Hi</p>' }, NOW))).toBe(
      false,
    );
  });

  it('leaves out empty optional fields', () => {
    expect(newsBody({ ...EMPTY_NEWS, title: ' T ', category: 'Events', bodyHtml: '<p>Hi</p>' })).toEqual({
      title: 'T',
      category: 'Events',
      date: undefined,
      preview: undefined,
      body_html: '<p>Hi</p>',
      image: undefined,
      release_at: undefined,
      expires_at: undefined,
    });
  });
});

describe('document details', () => {
  const doc = {
    title: 'IFU',
    audience: 'us' as const,
    labels: ['upon_request' as const],
    products: ['p1', 'p2'],
    programmes: [],
    releaseAtMs: new Date(2026, 3, 1, 9, 0).getTime(),
    expiresAtMs: null,
  };

  it('fills the form from the document and sends every detail back', () => {
    const form = metadataForm(doc);
    expect(form).toMatchObject({ releaseAt: '2026-04-01T09:00', expiresAt: '', products: 'p1, p2' });
    expect(metadataBody(form)).toEqual({
      title: 'IFU',
      audience: 'us',
      labels: ['upon_request'],
      products: ['p1', 'p2'],
      programmes: [],
      release_at: new Date(2026, 3, 1, 9, 0).toISOString(),
      expires_at: null,
    });
  });

  it('checks the title and the schedule like the upload', () => {
    const form = metadataForm(doc);
    expect(validateMetadata({ ...form, title: ' ' }, NOW).title).toBe('Enter a title.');
    expect(validateMetadata({ ...form, expiresAt: '2026-03-31T09:00' }, NOW).expiresAt).toBe(
      'The expiry must be after the release.',
    );
    expect(hasErrors(validateMetadata(form, NOW))).toBe(false);
  });
});
