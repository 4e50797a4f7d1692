import { errors } from "@burnbox/service-kit/runtime";
import type { HubFrame, StreamSocket } from "../../adapters/ws-hub";
import type { RealtimeDeps } from "../deps";
import { checkInboxAccess } from "./check-inbox-access";
import { receivedEmailFrame } from "./received-email-frame";

/**
 * Admits a browser to an inbox's stream. The caller is whoever holds the ticket (redeemed once),
 * not a gateway context: the upgrade carries none. Resolves, once the inbox access is checked,
 * with what attaches the upgraded socket, so a refused caller gets a plain HTTP error and never
 * a socket.
 *
 * The inbox's live subscription on this replica is in place before the upgrade (`deps.live`).
 * With `lastEventId` (a resumed stream), the socket is attached at once with its live frames held
 * back; the inbox's `email.received` frames after that event are read from the replay source and
 * sent first, then the held live frames but those already replayed: in order, none twice, no gap.
 * When the event is not in the replay window, or the source fails, one `resync_required` frame
 * goes first instead (the client reads the list again), then the live frames.
 */
export async function openInboxStream(
  deps: RealtimeDeps,
  input: { inboxId: string; ticket: string; lastEventId?: string },
): Promise<(socket: StreamSocket) => void> {
  const actor = await deps.tickets.redeem(input.ticket);
  if (!actor) throw errors.unauthenticated("invalid or expired ticket");
  await checkInboxAccess(deps, actor, input.inboxId);
  const { inboxId, lastEventId } = input;
  // before the upgrade: the client's socket opens only once its inbox's mail reaches this replica
  const attached = await deps.live.watch(inboxId);
  if (!lastEventId) {
    return (socket) => {
      deps.hub.add(inboxId, socket);
      attached();
    };
  }
  return (socket) => {
    // attached before the read, so that whatever is published meanwhile is held, not lost
    deps.hub.add(inboxId, socket, { hold: true });
    attached();
    void replayMissed(deps, inboxId, lastEventId).then((first) => deps.hub.release(socket, first));
  };
}

/** The frames a resumed stream gets before the live ones. */
async function replayMissed(deps: RealtimeDeps, inboxId: string, lastEventId: string): Promise<HubFrame[]> {
  const resync = (reason: "not_in_window" | "replay_unavailable"): HubFrame[] => [
    { type: "resync_required", data: { inbox_id: inboxId, last_event_id: lastEventId, reason } },
  ];
  try {
    const missed = await deps.replay.missed(inboxId, lastEventId);
    return missed.found ? missed.events.map(receivedEmailFrame) : resync("not_in_window");
  } catch (err) {
    deps.logger.warn({ err, inbox_id: inboxId }, "inbox stream replay failed; the client is told to resync");
    return resync("replay_unavailable");
  }
}
