import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The search text and page of a list's URL (`?q=…&page=…`); a page that is not a whole number from 1 is the first.
 * @example
 * readListPlace(new URLSearchParams('q=ann&page=2')); // { query: 'ann', page: 2 }
 */
export function readListPlace(searchParams: URLSearchParams): { query: string; page: number } {
  const rawPage = Number(searchParams.get('page') ?? '1');
  return { query: searchParams.get('q') ?? '', page: Number.isSafeInteger(rawPage) && rawPage >= 1 ? rawPage : 1 };
}

/** List state kept in the URL (`?q=…&page=…`) so reload and back/forward keep it. */
export function useListSearchParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const { query, page } = readListPlace(searchParams);

  const update = useCallback(
    (changes: Record<string, string | number | null>, options: { replace?: boolean } = {}) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === null || value === '' || (key === 'page' && value === 1)) next.delete(key);
            else next.set(key, String(value));
          }
          return next;
        },
        { replace: options.replace ?? false },
      );
    },
    [setSearchParams],
  );

  return { query, page, searchParams, update };
}
