/**
 * Counts the delivery attempts of each message (`defer_first`), in a store every intake replica
 * shares: an attempt on one replica and the next on another are the first and the second.
 */
export interface AttemptCounter {
  /**
   * Counts one attempt of each key and returns each key's count, this one included (1 for the
   * first). Rejects when the store cannot answer (the intake then answers 451, as for any
   * temporary failure).
   */
  count(keys: readonly string[]): Promise<number[]>;
}

/** How long a message's count is kept after its last attempt: a sender retrying within a day is recognised. */
export const ATTEMPT_MEMORY_MS = 24 * 60 * 60 * 1000;
