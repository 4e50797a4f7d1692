import type { InboxDeps } from "../deps";

/**
 * A domain tenancy moved to another org (`domain.transferred`): the old org's inboxes on it are
 * deactivated (no more mail, no longer listed as active), once per event. The change commits no
 * event; the repository records it, and the intakes drop their cached recipients (RECIPIENT_CHANGES).
 */
export async function deactivateDomainInboxes(
  deps: InboxDeps,
  input: { consumer: string; eventId: string; fromOrgId: string; domainId: string },
): Promise<void> {
  await deps.data.write(async (repos) => {
    if (!(await repos.processedEvents.claim(input.consumer, input.eventId))) return;
    await repos.inboxes.deactivateOnDomain({ orgId: input.fromOrgId }, input.domainId);
  });
}
