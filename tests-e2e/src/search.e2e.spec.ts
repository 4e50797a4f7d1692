import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, buildMessage, deliverOk } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

/** The search syntax of `q` on an inbox's email list (README, "Searching mail"), through the gateway and SMTP. */
describe("searching an inbox's mail with q", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let token = "";
  let inboxId = "";
  let address = "";
  let otherAddress = "";
  const ids: Record<string, string> = {};

  /** A message as a sender writes it: plain text, or with one attachment. */
  const deliver = (to: string, m: { from: string; subject: string; text: string; attachment?: boolean }) =>
    deliverOk(
      system.ports.smtp,
      m.from,
      to,
      buildMessage({ ...m, to, ...(m.attachment ? { file: { name: "notes.txt", content: "notes" } } : {}) }),
    );

  beforeAll(async () => {
    const world = await teamWithDomain(api);
    token = world.owner.token;
    const inbox = await createInbox(api, token, world.assignmentId, `search-${randomBytes(3).toString("hex")}`);
    inboxId = inbox.id;
    address = inbox.full_address;
    otherAddress = (await createInbox(api, token, world.assignmentId, `other-${randomBytes(3).toString("hex")}`)).full_address;
    await deliver(address, { from: "billing@shop.example", subject: "Your invoice for March", text: "Amount due: 42 EUR" });
    await deliver(address, {
      from: "reports@team.example",
      subject: "Weekly report",
      text: "The invoice total is attached",
      attachment: true,
    });
    await deliver(address, { from: "noreply@auth.example", subject: "Password reset", text: "Use code 123456" });
    await deliver(otherAddress, { from: "billing@shop.example", subject: "Your invoice elsewhere", text: "not this inbox" });
    const all = await waitFor(
      async () => {
        const res = await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inboxId}/emails`, { token });
        return res.body.data.length === 3 ? res.body.data : undefined;
      },
      { what: "three emails stored" },
    );
    for (const e of all) ids[e.subject] = e.id;
    const read = await api("PATCH", `/emails/${ids["Password reset"]}`, { token, body: { is_read: true } });
    expect(read.status).toBe(200);
  });

  const search = async (q: string) => {
    const res = await api<{ data: Array<{ subject: string }>; total: number }>(
      "GET",
      `/inboxes/${inboxId}/emails?q=${encodeURIComponent(q)}`,
      {
        token,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(res.body.data.length);
    return res.body.data.map((e) => e.subject).sort();
  };

  it.each([
    ["free words (subject, body or sender)", "invoice", ["Weekly report", "Your invoice for March"]],
    ["a quoted phrase", '"invoice total"', ["Weekly report"]],
    ["a whole word of the body", "total", ["Weekly report"]],
    ["a part of a word of the body (bodies match whole words)", "tota", []],
    ["a part of a word of the subject (subjects match substrings)", "passw", ["Password reset"]],
    ["from:", "from:billing@", ["Your invoice for March"]],
    ["to:", "to:search-", ["Password reset", "Weekly report", "Your invoice for March"]],
    ["to: of another address", "to:other-", []],
    ["subject:", 'subject:"weekly report"', ["Weekly report"]],
    ["has:attachment", "has:attachment", ["Weekly report"]],
    ["is:read", "is:read", ["Password reset"]],
    ["is:unread", "is:unread", ["Weekly report", "Your invoice for March"]],
    [
      "after: (today, midnight UTC)",
      `after:${new Date().toISOString().slice(0, 10)}`,
      ["Password reset", "Weekly report", "Your invoice for March"],
    ],
    ["before: (today)", `before:${new Date().toISOString().slice(0, 10)}`, []],
    ["- on a word", "-invoice", ["Password reset"]],
    ["- on an operator", "-from:billing@ -has:attachment", ["Password reset"]],
    ["several terms together", "invoice is:unread -has:attachment after:2000-01-01", ["Your invoice for March"]],
  ])("when q uses %s (%s), then exactly the matching emails of the inbox are listed", async (_what, q, expected) => {
    expect(await search(q)).toEqual(expected);
  });

  it.each([
    ["before:someday", "before:someday"],
    ["color:red", "color:red"],
    ['subject:"open', 'subject:"open'],
    ["invoice from:", "from:"],
  ])("when q is %s, then 400 in the error envelope naming the term %s", async (q, token_) => {
    const res = await api<{ error: string; code: string; details: Array<{ path: string }> }>(
      "GET",
      `/inboxes/${inboxId}/emails?q=${encodeURIComponent(q)}`,
      { token },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.error).toContain(`"${token_}"`);
    expect(res.body.details[0]?.path).toBe("q");
  });
});
