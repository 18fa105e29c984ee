import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { DocItem } from '../types';

/**
 * The open action menu lives in the URL (`?item={id}`), so a file tapped on
 * Home opens its menu here, and the menu always shows the freshest copy of
 * the item from the list.
 */
export function useItemMenu(list: DocItem[] | undefined) {
  const [params, setParams] = useSearchParams();
  const id = params.get('item');
  const item = id ? (list?.find((candidate) => candidate.id === id) ?? null) : null;

  const openMenu = useCallback(
    (target: DocItem) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('item', target.id);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const closeMenu = useCallback(
    () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('item');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  return { item, openMenu, closeMenu };
}
