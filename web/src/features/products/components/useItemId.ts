import { useParams } from 'react-router';

/** A positive numeric route parameter, or null when it is missing or malformed. */
export function useRouteId(name: string): string | null {
  const value = useParams()[name];
  return value && /^\d+$/.test(value) && Number(value) > 0 ? value : null;
}
