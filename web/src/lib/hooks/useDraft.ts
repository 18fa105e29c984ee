import { useState, type Dispatch, type SetStateAction } from 'react';

/**
 * Editable copy of applied values (filter choices in a modal, applied with Done).
 * When the applied values change (`key`), the copy starts again from them.
 */
export function useDraft<T>(applied: T, key: string): [T, Dispatch<SetStateAction<T>>] {
  const [draft, setDraft] = useState(applied);
  const [draftKey, setDraftKey] = useState(key);
  if (draftKey !== key) {
    // Adjusting state while rendering: React re-renders at once, without an effect pass.
    setDraftKey(key);
    setDraft(applied);
    return [applied, setDraft];
  }
  return [draft, setDraft];
}
