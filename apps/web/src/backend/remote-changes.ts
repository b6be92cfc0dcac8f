import { changeEventSchema, changeFeedEventName, changeFeedPath, type ChangeEvent } from '@otto/api-contract';

/**
 * Listens to a server's change feed (`GET /api/changes`, Server-Sent Events) and calls `listener`
 * with each change. After the stream was lost and came back, changes may have been missed: the
 * listener then hears one change per entity without ids (everything of that kind is stale).
 * `token` is the server's bearer token: `EventSource` cannot send headers, so it goes in the
 * `token` query parameter, which the server takes on this path only (decision 0050).
 * Returns the function that closes the stream.
 * @example
 * const stop = listenForRemoteChanges('http://localhost:8787/api', (event) => console.log(event));
 */
export function listenForRemoteChanges(apiBaseUrl: string, listener: (event: ChangeEvent) => void, token?: string): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource(`${apiBaseUrl}${changeFeedPath}${token ? `?token=${encodeURIComponent(token)}` : ''}`);
  let lost = false;
  source.addEventListener(changeFeedEventName, (message) => {
    try {
      const parsed = changeEventSchema.safeParse(JSON.parse((message as MessageEvent<string>).data));
      if (parsed.success) listener(parsed.data);
    } catch {
      // Not JSON: not an event of this feed.
    }
  });
  source.addEventListener('error', () => {
    lost = true;
  });
  source.addEventListener('open', () => {
    if (!lost) return;
    lost = false;
    listener({ entity: 'customer', kind: 'updated', ids: [] });
    listener({ entity: 'job', kind: 'updated', ids: [] });
  });
  return () => source.close();
}
