import { describe, expect, it } from 'vitest';
import { LIVE_QUERY_KEYS } from '@/lib/realtime/dispatch';
import { documentsQuery } from './get-documents';
import { folderQuery } from './get-folder';
import { HOME_DOCUMENTS_KEY } from './keys';

const live = (key: readonly unknown[]) =>
  LIVE_QUERY_KEYS.documents.some((prefix) => prefix.every((part, i) => key[i] === part));

describe('documents query keys', () => {
  it('keep the lists, open folders and the home carousel under the prefixes the realtime feed refreshes', () => {
    expect(live(documentsQuery('shared').queryKey)).toBe(true);
    expect(live(documentsQuery('my').queryKey)).toBe(true);
    expect(live(folderQuery('f1', 'shared').queryKey)).toBe(true);
    expect(live([...HOME_DOCUMENTS_KEY, true])).toBe(true);
  });
});
