// Otto's core flows (browsers/shared-flows.ts) in WebKit.
import { launchWebKitSession } from './browsers/webkit';
import { sharedFlows } from './browsers/shared-flows';

sharedFlows('webkit', launchWebKitSession);
