// Every one of Otto's core flows (browsers/shared-flows.ts) in Chromium, the ones the Chromium suite
// covers included: `npm run test:long` (OTTO_E2E=long) runs them all here.
import { launchChromiumSession } from '../browsers/chromium';
import { sharedFlows } from '../browsers/shared-flows';

sharedFlows('chromium', launchChromiumSession);
