/**
 * `promise`, or `fallback` if it rejects (after `onFailure` is told why). The intake starts the
 * authentication checks and the spam score before it awaits the parse: a promise that rejects
 * while nothing awaits it yet is an unhandled rejection, which ends the process with every
 * session it holds. Both are meant never to reject (their contracts say so); this keeps one that
 * does, by a bug, to the one message: stored without that result, not the intake down.
 */
export function fallbackOnFailure<T>(promise: Promise<T>, fallback: T, onFailure: (err: unknown) => void): Promise<T> {
  return promise.catch((err: unknown) => {
    onFailure(err);
    return fallback;
  });
}
