import type { ChangeEvent } from '@otto/api-contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { changeInvalidations } from './change-invalidations';
import { createChangeBatcher } from './create-change-batcher';

/** Where change events come from: the in-browser backend or a server's event stream. */
export interface ChangeSource {
  onChange(listener: (event: ChangeEvent) => void): () => void;
}

/**
 * Keeps this tab's cache in step with the database, whichever tab (or browser, on a shared server)
 * wrote: each committed change marks the queries it affects stale (the visible ones refetch),
 * coalesced so that a burst of writes costs a handful of refetches. After a restore or a deleted
 * database the whole cache is dropped; the returned number then goes up, for the caller to remount
 * its screens (they may hold state built from data that no longer exists).
 * @example
 * const resets = useLiveUpdates(backend);
 * return <Outlet key={resets} />;
 */
export function useLiveUpdates(source: ChangeSource | undefined): number {
  const queryClient = useQueryClient();
  const [resets, setResets] = useState(0);

  useEffect(() => {
    if (!source) return undefined;
    const batcher = createChangeBatcher({
      flush(events) {
        if (events.some((event) => event.entity === 'database')) {
          queryClient.removeQueries();
          setResets((n) => n + 1);
          return undefined;
        }
        return Promise.all(changeInvalidations(events).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      },
    });
    const stop = source.onChange(batcher.push);
    return () => {
      stop();
      batcher.dispose();
    };
  }, [source, queryClient]);

  return resets;
}
