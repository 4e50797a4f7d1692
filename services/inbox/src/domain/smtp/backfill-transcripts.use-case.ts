import type { InboxDeps } from "../deps";

/** Where the walk of `email_transcripts` starts: below every email id. */
const FIRST = "00000000-0000-0000-0000-000000000000";

export interface BackfillBatches {
  /** `email_transcripts` rows read per statement. */
  rows?: number;
  /** Awaited between two statements: the worker rests there, so the intake and the reads keep the database. */
  rest?: () => Promise<void>;
  /** Checked before each statement: true ends the walk early (the service is stopping). */
  stopping?: () => boolean;
}

/**
 * The migrate step of the transcript's move to `emails.transcript` (migration 0018, docs/operations.md):
 * walks `email_transcripts` by email id, one bounded statement at a time, copying each transcript
 * into its email's row where the row has none, so that a later release can drop the table and the
 * readers' fallback to it. Returns how many rows it filled (0 once every replica's walk is done).
 * Idempotent, so several replicas may walk at once and a walk cut short is simply walked again.
 */
export async function backfillTranscripts(deps: InboxDeps, batches: BackfillBatches = {}): Promise<{ filled: number; complete: boolean }> {
  const { rows = 500, rest, stopping } = batches;
  let filled = 0;
  for (let after: string | null = FIRST; after !== null;) {
    if (stopping?.()) return { filled, complete: false };
    const step = await deps.data.hot.smtpLog.backfillTranscripts(after, rows);
    filled += step.filled;
    after = step.next;
    if (after !== null) await rest?.();
  }
  return { filled, complete: true };
}
