import type { TenancyDeps } from "../deps";

/** The domain part of an inbox address, as domains are stored. */
const domainOf = (fullAddress: string): string => fullAddress.slice(fullAddress.lastIndexOf("@") + 1).toLowerCase();

/**
 * Moves the inbox counters of the inbox's team and domain once per event: +1 when an inbox is
 * created (the domain's total too), -1 when it expires (never below zero). `consumer` names the
 * idempotency record, so a redelivered event changes nothing. One statement with the claim
 * (`InboxCounters`), grouped with the other events in flight: a cleanup that expires thousands of
 * one team's inboxes does not queue thousands of transactions on that team's row.
 */
export async function countInbox(
  deps: TenancyDeps,
  input: { consumer: string; eventId: string; teamId: string; fullAddress: string; delta: 1 | -1 },
): Promise<void> {
  await deps.data.hot.inboxCounters.count(
    { claim: { consumer: input.consumer, eventId: input.eventId }, teamId: input.teamId, domainName: domainOf(input.fullAddress) },
    input.delta,
  );
}
