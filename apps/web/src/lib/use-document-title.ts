import { useEffect } from 'react';

/** Sets the tab title to "<title> · Otto". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Otto`;
  }, [title]);
}
