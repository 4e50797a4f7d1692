import type { HeldSocket, HubFrame } from "../../adapters/ws-hub";
import type { RealtimeDeps } from "../deps";
import type { Missed } from "./email-replay";
import { receivedEmailFrame } from "./received-email-frame";

/** How many replay reads a catch-up runs at once (the stream serves the resumes meanwhile). */
const CATCH_UP_CONCURRENCY = 4;
/**
 * How often a failed replay read is tried again, the first after 200 ms and each next one twice
 * as late (6.2 s in all): a NATS server that has just restarted answers before its JetStream does.
 */
const READ_ATTEMPTS = 6;

/** `fn`, tried again after a failure until READ_ATTEMPTS have failed. */
async function withRetries<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= READ_ATTEMPTS) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    }
  }
}

/**
 * After the live subscriptions were away (a NATS reconnect of this replica), every open inbox
 * socket gets the frames it missed, from the events stream: `held` are the sockets `hub.holdAll`
 * held before the subscriptions were back, so what comes live meanwhile waits behind the replay
 * and is not sent twice (`hub.release`).
 *
 * A socket's anchor is the oldest of the last frame ids it was sent, and the replay after it
 * leaves out those it was sent already: the live copies of two intakes can reach a replica in
 * another order than the stream's, so the last id alone could skip one or repeat one. Not in the
 * window: from its last id; neither: one `resync_required` frame (the client reads the list
 * again). A socket that was sent no frame yet gets the inbox's events stored since it was added,
 * or since shortly before the connection dropped if later (`sinceMs`); when those are not all in
 * the window it is closed with 1012, and the client reconnects. Sockets with the same anchor
 * share one read.
 */
export async function catchUpInboxStreams(deps: RealtimeDeps, held: readonly HeldSocket[], sinceMs: number): Promise<void> {
  const reads = new Map<string, Promise<Missed | null>>();
  const read = (key: string, fn: () => Promise<Missed>) => {
    let p = reads.get(key);
    if (!p) {
      p = withRetries(fn).catch((err: unknown) => {
        deps.logger.warn({ err }, "inbox stream catch-up could not read the events stream");
        return null;
      });
      reads.set(key, p);
    }
    return p;
  };
  const one = async ({ key: inboxId, socket, recent, addedAt }: HeldSocket) => {
    const last = recent[recent.length - 1];
    if (!last) {
      const from = Math.max(addedAt, sinceMs);
      const missed = await read(`${inboxId}@${from}`, () => deps.replay.since(inboxId, from));
      if (missed?.found) return deps.hub.release(socket, missed.events.map(receivedEmailFrame));
      deps.hub.release(socket, []);
      return socket.close(1012, "stream interrupted, reconnect");
    }
    const oldest = recent[0] as string;
    let missed = await read(`${inboxId}/${oldest}`, () => deps.replay.missed(inboxId, oldest));
    if (missed && !missed.found && oldest !== last) missed = await read(`${inboxId}/${last}`, () => deps.replay.missed(inboxId, last));
    const frames: HubFrame[] = missed?.found
      ? missed.events.filter((e) => !recent.includes(e.id)).map(receivedEmailFrame)
      : [
          {
            type: "resync_required",
            data: { inbox_id: inboxId, last_event_id: last, reason: missed ? "not_in_window" : "replay_unavailable" },
          },
        ];
    deps.hub.release(socket, frames);
  };
  const queue = [...held];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await one(next);
  };
  await Promise.all(Array.from({ length: Math.min(CATCH_UP_CONCURRENCY, queue.length) }, worker));
}
