import { randomBytes } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { apiClient, sendMail } from "./clients";
import { seriousViolations } from "./console/axe";
import { attachConsole } from "./console/browser";
import { signIn } from "./console/world";
import { SharedSystem } from "./shared-system";
import { newClientIp, teamWithDomain } from "./world";

type InboxBody = { id: string; full_address: string };

/**
 * The inbox page's "SMTP behaviour" form and "SMTP log" (issue 29 item 4, extensions section 8) in
 * Chromium: a refusal set in the form answers a real SMTP sender, the attempt shows in the log, and
 * "Reset to normal" makes the intake accept mail again.
 */
describe("the console: an inbox's SMTP behaviour and SMTP log", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let context: BrowserContext;
  let page: Page;
  const FROM = "sender@acme.example";

  beforeAll(async () => {
    world = await teamWithDomain(api);
    context = await ui.browser.newContext({ baseURL: system.gatewayUrl, viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
    context.setDefaultTimeout(15_000);
    await context.setExtraHTTPHeaders({ "x-forwarded-for": newClientIp() });
    page = await context.newPage();
    await signIn(page, world.owner.email);
  });
  afterAll(async () => {
    await context?.close();
  });

  it("when reject_rcpt 550 is set in the form, then a sender gets '550 no thanks' and the attempt is in the log; after a reset, mail is accepted", async () => {
    const created = await api<InboxBody>("POST", "/inboxes", {
      token: world.owner.token,
      body: { domain_assignment_id: world.assignmentId, alias: `behave-${randomBytes(3).toString("hex")}` },
    });
    expect(created.status).toBe(201);
    const inbox = created.body;
    await page.goto(`/inboxes/${inbox.id}`);
    const behaviour = page.getByRole("region", { name: "SMTP behaviour" });
    await behaviour.getByText("Normal", { exact: true }).waitFor();
    await page.getByRole("region", { name: "SMTP log" }).getByText("No refused or deferred attempts").waitFor();

    // a bad value: the form refuses it before sending (the contract's rule), under the field and in a summary
    const patches: string[] = [];
    const onRequest = (r: { method(): string; url(): string }) => void (r.method() === "PATCH" && patches.push(r.url()));
    page.on("request", onRequest);
    await behaviour.getByLabel("Reject RCPT TO").check();
    await behaviour.getByLabel("Reply code").fill("600");
    await behaviour.getByLabel("Reply message").fill("no thanks");
    await behaviour.getByRole("button", { name: "Save behaviour" }).click();
    await behaviour.getByRole("alert").filter({ hasText: "Please check the form" }).waitFor();
    await expect(behaviour.getByLabel("Reply code").getAttribute("aria-invalid")).resolves.toBe("true");
    page.off("request", onRequest);
    expect(patches).toEqual([]);

    await behaviour.getByLabel("Reply code").fill("550");
    await behaviour.getByRole("button", { name: "Save behaviour" }).click();
    await behaviour.getByText("RCPT TO refused: 550 no thanks").waitFor();
    const stored = await api<{ smtp_behaviour: unknown }>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token });
    expect(stored.body.smtp_behaviour).toEqual({ reject_rcpt: { code: 550, message: "no thanks" } });

    const refused = await sendMail(system.ports.smtp, { from: FROM, to: inbox.full_address, subject: "refused", text: "hi" });
    expect(refused.rcpt).toEqual({ code: 550, text: "no thanks" });

    const log = page.getByRole("region", { name: "SMTP log" });
    await log.getByRole("button", { name: "Refresh log" }).click();
    const row = log.getByTestId("smtp-attempt").first();
    await row.waitFor();
    await expect(row.textContent()).resolves.toContain(FROM);
    await expect(row.textContent()).resolves.toContain(inbox.full_address);
    await expect(row.getByTestId("smtp-attempt-reply").textContent()).resolves.toBe("550 no thanks");
    await row.getByText("Transcript", { exact: true }).click();
    await expect(row.getByTestId("smtp-transcript").textContent()).resolves.toContain(`C: RCPT TO:<${inbox.full_address}>`);
    expect(await seriousViolations(page)).toEqual([]);

    await behaviour.getByRole("button", { name: "Reset to normal" }).click();
    await behaviour.getByText("Normal", { exact: true }).waitFor();
    const after = await api<{ smtp_behaviour: unknown }>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token });
    expect(after.body.smtp_behaviour).toBeNull();

    const subject = `accepted ${randomBytes(3).toString("hex")}`;
    const accepted = await sendMail(system.ports.smtp, { from: FROM, to: inbox.full_address, subject, text: "hi again" });
    expect(accepted.rcpt.code).toBe(250);
    expect(accepted.data?.code).toBe(250);
    await page.getByTestId("mail-row").filter({ hasText: subject }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
