import type { TenancyDeps } from "../deps";

/** The domain part of an inbox address, as domains are stored. */
export const domainOf = (fullAddress: string): string => fullAddress.slice(fullAddress.lastIndexOf("@") + 1).toLowerCase();

/**
 * Moves the inbox counters of the inbox's team and domain once per event: +1 when an inbox is
 * created (the domain's total too), -1 when it expires (never below zero). `consumer` names the
 * idempotency record, so a redelivered event changes nothing.
 */
export async function countInbox(
  deps: TenancyDeps,
  input: { consumer: string; eventId: string; teamId: string; fullAddress: string; delta: 1 | -1 },
): Promise<void> {
  await deps.data.write(async (repos) => {
    if (!(await repos.processedEvents.claim(input.consumer, input.eventId))) return;
    const [team, domain] = await Promise.all([repos.teams.locate(input.teamId), repos.domains.locateByName(domainOf(input.fullAddress))]);
    if (team) await repos.teams.adjustActiveInboxes(team, input.delta);
    if (domain) await repos.domains.countInbox(domain, domain.domainId, input.delta);
    if (team && domain && team.orgId === domain.orgId) await repos.domainAssignments.countInbox(team, domain.domainId, input.delta);
  });
}
