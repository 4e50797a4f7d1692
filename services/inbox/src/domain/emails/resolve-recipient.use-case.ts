import type { SmtpBehaviour } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { InboxDeps } from "../deps";

/** One recipient of a message accepted at RCPT TO, and the inbox (and tenant) it is delivered to. */
export interface Delivery {
  inboxId: string;
  scope: TeamScope;
  recipient: string;
  /** The inbox's creator, named in the `email.received` event (their notification). */
  createdBy: string;
  /** The inbox's SMTP behaviour when the transaction named it (extensions section 8); null: normal. */
  behaviour: SmtpBehaviour | null;
}

/**
 * The delivery for an RCPT TO address, or null when no active, unexpired inbox has exactly that
 * address (the intake is never an open relay). System-driven: the sender is not a caller.
 */
export async function resolveRecipient(deps: InboxDeps, input: { address: string }): Promise<Delivery | null> {
  const recipient = input.address.trim().toLowerCase();
  const inbox = await deps.data.hot.intake.locateReceiving(recipient, new Date(deps.now()));
  return (
    inbox && {
      inboxId: inbox.id,
      scope: { orgId: inbox.orgId, teamId: inbox.teamId },
      recipient,
      createdBy: inbox.createdBy,
      behaviour: inbox.behaviour,
    }
  );
}
