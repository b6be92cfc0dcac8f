// Otto's core flows (browsers/shared-flows.ts) in Chromium. The Chromium suite already asserts most
// of them, each in the file named below (and more than the flow does): on every `npm test` Chromium
// runs the flows no other file covers; `npm run test:long` runs every flow here too (decision 0041).
import { launchChromiumSession } from './browsers/chromium';
import { sharedFlows } from './browsers/shared-flows';

sharedFlows('chromium', launchChromiumSession, {
  coveredElsewhere: {
    'first visit: the list comes from the in-browser database': 'backend.e2e.test.ts (answers /api from a first visit…)',
    'opens every screen': 'customers.e2e.test.ts (renders every route) and a11y.e2e.test.ts (every screen)',
    'pages and searches as you type': 'customers.e2e.test.ts (searches as you type, pages, and keeps both in the URL…)',
    'creates and edits a customer, and keeps it after a reload': 'customers.e2e.test.ts (validates before sending, creates a customer, edits it…)',
    'two tabs use one database': 'backend.e2e.test.ts (shares one database between tabs…) and live-tabs.e2e.test.ts',
    'takes a job from quote to paid': 'jobs.e2e.test.ts and errands.e2e.test.ts',
    'downloads a backup and restores it': 'nothing-lost.e2e.test.ts (downloads a SQLite file… and restores it)',
    'schedules a job from the unscheduled list': 'schedule.e2e.test.ts (schedules by drag and by keyboard…)',
    'invoices a completed job with tax': 'invoices.e2e.test.ts (invoices a completed job… takes two payments)',
    'answers a page’s own /api call sent right after a load': 'backend.e2e.test.ts (answers a page’s own /api call… issue 33)',
    'works offline after one visit': 'offline.e2e.test.ts (opens every route, creates and edits with the web server stopped…)',
  },
});
