// Names shared by the DB worker (which keeps the data stamp), the app (which keeps the first screen)
// and public/kept-screen.js (which shows it before the app's code has loaded). Decision 0009.

/** The Cache Storage cache that holds the data stamp and the kept first screen. */
export const keptScreenCache = 'otto-first-screen';

/** The kept first screen's entry in that cache. */
export const keptScreenKey = '/__otto/first-screen';
