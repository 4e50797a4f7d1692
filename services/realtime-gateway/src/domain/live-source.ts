/**
 * The port through which a stream asks for its key's live messages on this replica (an inbox's
 * mail, a user's notifications; `messaging/live-subjects.ts`): `watch` resolves once they reach
 * this replica, with what to call once the socket is attached to its hub (or will not be); they
 * stop coming when the key's last socket here closes.
 */
export interface LiveSource {
  watch(key: string): Promise<() => void>;
}
