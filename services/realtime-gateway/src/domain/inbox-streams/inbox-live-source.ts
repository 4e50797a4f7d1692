/**
 * The port through which an inbox stream asks for its inbox's live mail on this replica
 * (`messaging/live-inboxes.ts`): `watch` resolves once that mail reaches this replica, with what
 * to call once the socket is attached to the hub (or will not be); the mail stops coming when the
 * inbox's last socket here closes.
 */
export interface InboxLiveSource {
  watch(inboxId: string): Promise<() => void>;
}
