import type { AttemptRecord } from "../../data/delivery-queue.repository";

/** Delay before attempt n+1 after attempt n failed: base, 5 x base, 25 x base, ... (spec 6.3). */
export const retryDelayMs = (failedAttempt: number, baseMs: number): number => baseMs * 5 ** (failedAttempt - 1);

/** What becomes of a delivery after its attempt number `attempt` ended `at`. */
export function attemptOutcome(opts: {
  success: boolean;
  attempt: number;
  maxAttempts: number;
  retryBaseMs: number;
  at: Date;
}): AttemptRecord["outcome"] {
  if (opts.success) return { status: "succeeded" };
  if (opts.attempt >= opts.maxAttempts) return { status: "failed" };
  return { status: "pending", nextAttemptAt: new Date(opts.at.getTime() + retryDelayMs(opts.attempt, opts.retryBaseMs)) };
}
