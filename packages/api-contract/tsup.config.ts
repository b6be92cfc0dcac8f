import { mkdir, writeFile } from 'node:fs/promises';
import { defineConfig } from 'tsup';
import { createOpenApiDocument } from './src/openapi/create-openapi-document';

export default defineConfig({
  entry: { index: 'src/index.ts', conformance: 'src/conformance/index.ts', cli: 'src/conformance/cli.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts', conformance: 'src/conformance/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // `@otto/api-contract/openapi.json`: generated from the route table at every build, never by hand.
  async onSuccess() {
    await mkdir('dist', { recursive: true });
    await writeFile('dist/openapi.json', `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`);
  },
});
