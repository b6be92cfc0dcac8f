// Otto's core flows (browsers/shared-flows.ts) in Chromium.
import { launchChromiumSession } from './browsers/chromium';
import { sharedFlows } from './browsers/shared-flows';

sharedFlows('chromium', launchChromiumSession);
