// Otto's core flows (browsers/shared-flows.ts) in Firefox.
import { launchFirefoxSession } from './browsers/firefox';
import { sharedFlows } from './browsers/shared-flows';

sharedFlows('firefox', launchFirefoxSession);
