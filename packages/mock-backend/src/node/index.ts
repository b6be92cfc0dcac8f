// Entry of `@otto/mock-backend/node`: the mock API served over HTTP by Node.
export { createMockServer, type MockServer, type MockServerOptions, type ServerLimits } from './create-mock-server';
export type { AccessOptions } from './access-policy';
export { createNodeHandler, type NodeHandlerOptions } from './create-node-handler';
export { createChangeStream, type ChangeStream, type ChangeStreamOptions } from './change-stream';
export { withApiDocs, type ApiDocsOptions } from './api-docs';
export { createPostgresApi, type PostgresApi, type PostgresApiOptions } from '../postgres/create-postgres-api';
export { postgresDatabase, type PostgresDatabaseOptions } from '../postgres/postgres-database';
