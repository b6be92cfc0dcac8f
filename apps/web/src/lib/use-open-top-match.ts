import { useEffect, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';

/**
 * Enter in a list's search box opens the top match, as a person expects of a search (issue 36).
 * Pressed while the list is still catching up with what was typed, it opens the top match of the
 * answer to that text once it arrives; with no match it does nothing (the list says so).
 * `top`: the link of the first row shown; `settled`: the rows answer the text in the box.
 * @example
 * const onKeyDown = useOpenTopMatch(rows[0] && paths.customers.edit.href(rows[0].id), settled);
 * <SearchBox … onKeyDown={onKeyDown} />
 */
export function useOpenTopMatch(top: string | undefined, settled: boolean): (event: KeyboardEvent<HTMLInputElement>) => void {
  const navigate = useNavigate();
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (!wanted || !settled) return;
    setWanted(false);
    if (top) void navigate(top);
  }, [wanted, settled, top, navigate]);
  return (event) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing || event.currentTarget.value.trim() === '') return;
    event.preventDefault();
    setWanted(true);
  };
}
