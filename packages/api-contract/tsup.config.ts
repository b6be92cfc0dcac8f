import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', conformance: 'src/conformance/index.ts', cli: 'src/conformance/cli.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts', conformance: 'src/conformance/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
