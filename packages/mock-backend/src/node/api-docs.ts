import { apiBasePath, createOpenApiDocument, type OpenApiDocument } from '@otto/api-contract';
import { renderApiReferencePage } from './api-reference-page';

/**
 * Options of `withApiDocs`.
 * @example
 * const options: ApiDocsOptions = { document: createOpenApiDocument({ version: '2.0.0' }) };
 */
export interface ApiDocsOptions {
  /**
   * The document to serve.
   * @default the OpenAPI document of @otto/api-contract's route table
   */
  document?: OpenApiDocument;
}

/**
 * Adds the API's own description in front of a `Request → Response` function: `GET /api/openapi.json`
 * (the OpenAPI 3.1 document) and `GET /api/docs` (a reference page generated from it: plain HTML,
 * no script, nothing fetched from elsewhere). Every other request goes to `fetchFn` unchanged.
 * These are extras of the server, not calls of the contract: the in-browser backend and the route
 * table do not have them.
 * @example
 * const api = await createMockApi();
 * createServer(createNodeHandler(withApiDocs((request) => api.fetch(request)))).listen(8787);
 */
export function withApiDocs(
  fetchFn: (request: Request) => Promise<Response>,
  options: ApiDocsOptions = {},
): (request: Request) => Promise<Response> {
  const document = options.document ?? createOpenApiDocument();
  let json: string | undefined;
  let page: string | undefined;
  return (request) => {
    if (request.method === 'GET') {
      const { pathname } = new URL(request.url);
      if (pathname === `${apiBasePath}/openapi.json`) {
        json ??= JSON.stringify(document, null, 2);
        return Promise.resolve(new Response(json, { headers: { 'content-type': 'application/json; charset=utf-8' } }));
      }
      if (pathname === `${apiBasePath}/docs`) {
        page ??= renderApiReferencePage(document, { documentUrl: `${apiBasePath}/openapi.json` });
        return Promise.resolve(
          new Response(page, {
            headers: {
              'content-type': 'text/html; charset=utf-8',
              // The page is static HTML: no script may run on it and nothing is loaded from elsewhere.
              'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'",
              'x-content-type-options': 'nosniff',
            },
          }),
        );
      }
    }
    return fetchFn(request);
  };
}
