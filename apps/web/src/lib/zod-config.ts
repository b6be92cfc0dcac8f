import { config } from 'zod/v4/core';

// zod compiles parsers with `new Function` unless told not to; Otto's Content-Security-Policy
// forbids eval, so parse without it. Imported first by the /biz area and the DB worker, before
// any schema parses anything.
config({ jitless: true });
