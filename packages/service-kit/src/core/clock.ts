/**
 * The clock every service hands its use cases, repositories and workers: milliseconds since the
 * epoch, like `Date.now` (the default). Tests pass their own and move it instead of sleeping;
 * code that needs a `Date` makes one where it needs it (`new Date(deps.now())`).
 */
export type Clock = () => number;

/** The real clock. */
export const systemClock: Clock = () => Date.now();
