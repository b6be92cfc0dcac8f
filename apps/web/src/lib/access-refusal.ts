/**
 * What a person reads when Otto's server refuses the call itself (remote and team mode): 401 (no
 * token, or not the server's) and 403 (this page's origin, or the server forbids it), in words that
 * name the setting to check. Undefined for any other answer.
 * @example
 * accessRefusal({ status: 401, serverUrl: 'http://otto.lan:8787', tokenGiven: false }); // "The server at otto.lan:8787 wants a token…"
 */
export function accessRefusal(refused: {
  status: number;
  /** The server's base URL (`VITE_OTTO_API_BASE_URL` without `/api`). */
  serverUrl: string;
  /** Whether this build sends a token (`VITE_OTTO_API_TOKEN` was set). */
  tokenGiven: boolean;
  /** The contract's error body, when the server sent one. */
  body?: { code?: string; message?: string } | undefined;
}): string | undefined {
  const host = URL.canParse(refused.serverUrl) ? new URL(refused.serverUrl).host : refused.serverUrl;
  const kept = 'Nothing was changed, and nothing you typed is lost.';
  if (refused.status === 401) {
    return refused.tokenGiven
      ? `The server at ${host} did not accept Otto's token: VITE_OTTO_API_TOKEN in this build is not the token the server was started with (its --token or OTTO_API_TOKEN). Put the server's token in VITE_OTTO_API_TOKEN and build Otto again. ${kept}`
      : `The server at ${host} wants a token, and this build of Otto sends none. Set VITE_OTTO_API_TOKEN to the server's token (the one it printed at start, or its --token or OTTO_API_TOKEN) and build Otto again. ${kept}`;
  }
  if (refused.status === 403) {
    const said = refused.body?.message ? ` It said: “${refused.body.message}”` : '';
    return refused.body?.code === 'ORIGIN_NOT_ALLOWED'
      ? `The server at ${host} does not let this page call it.${said} ${kept}`
      : `The server at ${host} refused this (403 Forbidden): the token is accepted but not allowed to do it.${said} Ask whoever runs the server. ${kept}`;
  }
  return undefined;
}
