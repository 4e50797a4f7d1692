import { randomUUID } from "node:crypto";
import type { Actor, AuthorizeReply } from "@burnbox/contracts";
import { seesInbox, type InboxAccessFacts } from "./inbox-access";

const actor: Actor = { user_id: randomUUID(), email: "b@example.test", is_system_admin: false, session_id: randomUUID(), api_key: null };
const own = randomUUID();
const full = randomUUID();
const allowed: AuthorizeReply = { allowed: true, reason: null };
const narrowed: AuthorizeReply = { allowed: true, reason: null, own_only_assignments: [own] };
const inbox = (over: Partial<InboxAccessFacts> = {}): InboxAccessFacts => ({
  org_id: randomUUID(),
  team_id: randomUUID(),
  domain_assignment_id: full,
  created_by: randomUUID(),
  private: false,
  ...over,
});

describe("seesInbox", () => {
  it("shows another's shared inbox, unless it is on an assignment the decision narrows to the actor's own", () => {
    expect(seesInbox(actor, allowed, inbox())).toBe(true);
    expect(seesInbox(actor, narrowed, inbox())).toBe(true);
    expect(seesInbox(actor, narrowed, inbox({ domain_assignment_id: own }))).toBe(false);
    expect(seesInbox(actor, allowed, inbox({ domain_assignment_id: own }))).toBe(true);
  });

  it("always shows the actor's own inboxes and never another's private one", () => {
    expect(seesInbox(actor, narrowed, inbox({ domain_assignment_id: own, created_by: actor.user_id }))).toBe(true);
    expect(seesInbox(actor, allowed, inbox({ private: true, created_by: actor.user_id }))).toBe(true);
    expect(seesInbox(actor, allowed, inbox({ private: true }))).toBe(false);
  });
});
