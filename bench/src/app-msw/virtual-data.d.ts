// The MSW variant's data, generated at build time by build/msw-app.ts.
declare module 'virtual:otto-bench-msw-data' {
  import type { ArrayData } from '../shared/seed-arrays';

  const data: ArrayData;
  export default data;
}
