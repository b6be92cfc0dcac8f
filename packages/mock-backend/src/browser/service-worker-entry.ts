// Entry of `@otto/mock-backend/service-worker`: Otto's /api relay for a service worker of your own.
export { installOttoRelay, type OttoRelayScope } from './service-worker-relay';
export { apiPathPrefix, skipWaitingType } from './protocol';
