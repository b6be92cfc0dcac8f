import { useEffect, useRef, useState } from 'react';
import { useDebouncedValue } from './use-debounced-value';

/**
 * The text of a search box that searches as the user types, kept in sync with the URL's `q`:
 * once typing pauses the URL follows the text, and back/forward put the URL's text in the box.
 */
export function useSearchText(query: string, setQuery: (text: string, options: { replace: boolean }) => void) {
  const [text, setText] = useState(query);
  const debounced = useDebouncedValue(text, 250);
  const lastTyped = useRef(debounced);

  // Back/forward put the URL's text in the box; the user's own typing (which the URL holds trimmed)
  // is left alone, so a trailing space or a key typed meanwhile is not lost.
  useEffect(() => {
    if (query !== lastTyped.current.trim()) setText(query);
  }, [query]);
  useEffect(() => {
    // Act only on new typing: when back/forward change the URL, the debounced text is stale
    // for a moment and must not be written back.
    if (debounced === lastTyped.current) return;
    lastTyped.current = debounced;
    // Starting a search adds a history entry; refining it replaces that entry.
    if (debounced.trim() !== query.trim()) setQuery(debounced.trim(), { replace: query !== '' });
  }, [debounced, query, setQuery]);

  return { text, setText, pending: text.trim() !== query.trim() };
}
