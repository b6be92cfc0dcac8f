// The floor: the same page-side loop against a service worker that answers a constant response.
import { controlledBy } from './control';
import { runFetchLoops } from './fetch-loops';
import './bench-window';

window.bench = { crossOriginIsolated: window.crossOriginIsolated, ready: controlledBy('/floor-sw.js'), runFetchLoops };
