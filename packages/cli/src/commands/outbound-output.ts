// What send, reply and release share: the body options and the printed answer.
import type { CommandContext } from "../context.js";
import { UsageError } from "../usage-error.js";

/** What a queued message answers: its id in the outbound log and its Message-ID. */
export function printQueued(ctx: CommandContext, queued: { outbound_id: string; message_id: string }, json?: boolean): void {
  if (json) return ctx.term.json(queued);
  ctx.term.out(`queued ${queued.outbound_id} ${queued.message_id}`);
}

export const body = (o: { text?: string; html?: string }) => {
  if (o.text === undefined && o.html === undefined) throw new UsageError("give --text or --html (or both)");
  return { ...(o.text !== undefined ? { text: o.text } : {}), ...(o.html !== undefined ? { html: o.html } : {}) };
};
