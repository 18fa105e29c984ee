import { lazy, type ComponentType } from 'react';

/** A route chunk that has not arrived after this long is treated as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The page took too long to load')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A route component loaded in its own chunk. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return lazy(() => withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS));
}
