import { randomBytes } from "node:crypto";
import type { Page } from "playwright-core";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { seriousViolations } from "./console/axe";
import { attachConsole } from "./console/browser";
import { signIn, userBrowser } from "./console/world";
import { SharedSystem } from "./shared-system";
import { Receiver } from "./webhook-kit";
import { createInbox, teamWithDomain } from "./world";

/** The team tools of the console (API keys, webhooks) in Chromium against the shared system. */
describe("the console: API keys and webhooks", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);

  const alias = (label: string) => `${label}-${randomBytes(3).toString("hex")}`;
  /** What a client holding `key` gets for a read of the team's inboxes. */
  const inboxesWith = (w: { orgId: string; teamId: string }, key: string) =>
    api<{ error?: string }>("GET", `/orgs/${w.orgId}/teams/${w.teamId}/inboxes`, { token: key });
  const rowOf = (page: Page, name: string) => page.getByRole("row").filter({ hasText: name });

  it("when a key is created with scopes, then its raw key is shown once and works; rotating shows a new one and the old one stops; disabling stops it", async () => {
    const world = await teamWithDomain(api);
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await signIn(page, world.owner.email);
      await page.goto("/api-keys");
      await page.getByRole("heading", { name: "No active API keys" }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Create key" }).first().click();
      const form = page.getByRole("dialog", { name: "Create an API key" });
      await form.getByLabel("Name").fill("CI suite");
      await form.getByRole("checkbox", { name: "team.inboxes.view" }).check();
      await form.getByRole("checkbox", { name: "team.inboxes.create" }).check();
      expect(await seriousViolations(page)).toEqual([]);
      await form.getByRole("button", { name: "Create key" }).click();

      const shown = page.getByRole("dialog", { name: "API key created" });
      const raw = await shown.getByLabel("API key", { exact: true }).inputValue();
      expect(raw).toMatch(/^bb_[0-9a-f]{64}$/);
      await shown.getByText("Shown only this once").waitFor();
      await shown.getByRole("button", { name: "I have stored it" }).click();
      await shown.waitFor({ state: "detached" });
      // once closed, the page holds it nowhere
      expect(await page.content()).not.toContain(raw);

      // the key works within its scopes, and only there
      const made = await api<{ id: string }>("POST", "/inboxes", {
        token: raw,
        body: { domain_assignment_id: world.assignmentId, alias: alias("key") },
      });
      expect(made.status).toBe(201);
      expect((await inboxesWith(world, raw)).status).toBe(200);
      const outside = await api<{ error: string }>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, { token: raw });
      expect(outside.status).toBe(403);

      // the row: scopes, status and usage (flushed every few seconds)
      const row = rowOf(page, "CI suite");
      await row.getByText("team.inboxes.create").waitFor();
      await row.getByText("Active").waitFor();
      await waitFor(
        async () => {
          await page.reload();
          return (await row.getByRole("cell").nth(4).textContent())?.trim() !== "0";
        },
        { what: "the key's request count in the list", timeoutMs: 20_000, intervalMs: 1000 },
      );

      // rotate: a new raw key, once; the old one is refused at once
      await row.getByRole("button", { name: "Actions for CI suite" }).click();
      await page.getByRole("menuitem", { name: "Rotate" }).click();
      await page.getByRole("dialog", { name: "Rotate this key?" }).getByRole("button", { name: "Rotate key" }).click();
      const rotated = page.getByRole("dialog", { name: "Key rotated" });
      const fresh = await rotated.getByLabel("API key", { exact: true }).inputValue();
      expect(fresh).toMatch(/^bb_[0-9a-f]{64}$/);
      expect(fresh).not.toBe(raw);
      await rotated.getByRole("button", { name: "I have stored it" }).click();
      expect((await inboxesWith(world, raw)).status).toBe(401);
      expect((await inboxesWith(world, fresh)).status).toBe(200);

      // disable: refused with the API's reason; the row says so
      await row.getByRole("button", { name: "Actions for CI suite" }).click();
      await page.getByRole("menuitem", { name: "Disable" }).click();
      await row.getByText("Disabled").waitFor();
      const disabled = await inboxesWith(world, fresh);
      expect(disabled.status).toBe(401);
      expect(disabled.body.error).toBe("API key disabled");
      // and enable again
      await row.getByRole("button", { name: "Actions for CI suite" }).click();
      await page.getByRole("menuitem", { name: "Enable" }).click();
      await row.getByText("Active").waitFor();
      expect((await inboxesWith(world, fresh)).status).toBe(200);
    } finally {
      await context.close();
    }
  });

  it("when keys are selected and revoked together, then the console asks first, says how many went, and the API refuses them", async () => {
    const world = await teamWithDomain(api);
    const keys: string[] = [];
    for (const name of ["bulk one", "bulk two", "keeper"]) {
      const res = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
        token: world.owner.token,
        body: { name, scopes: ["team.inboxes.view"] },
      });
      expect(res.status).toBe(201);
      keys.push(res.body.raw_key);
    }
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await signIn(page, world.owner.email);
      await page.goto("/api-keys");
      await page.getByRole("checkbox", { name: "Select bulk one" }).check();
      await page.getByRole("checkbox", { name: "Select bulk two" }).check();
      await page.getByRole("button", { name: "Revoke selected (2)" }).click();
      const confirm = page.getByRole("dialog", { name: "Revoke 2 keys?" });
      await confirm.getByRole("button", { name: "Revoke keys" }).click();
      await page.getByRole("status").filter({ hasText: "Revoked 2 keys." }).waitFor();
      // revoked keys leave the list, and come back with the filter (kept in the URL)
      await rowOf(page, "bulk one").waitFor({ state: "detached" });
      // (click, not check: the switch follows the URL, which the router updates a moment later)
      await page.getByLabel("Show revoked keys").click();
      await page.waitForURL(/[?&]revoked=shown/);
      await rowOf(page, "bulk one").getByText("Revoked").waitFor();

      for (const key of keys.slice(0, 2)) {
        const res = await inboxesWith(world, key);
        expect(res.status).toBe(401);
        expect(res.body.error).toBe("API key revoked");
      }
      expect((await inboxesWith(world, keys[2]!)).status).toBe(200);
    } finally {
      await context.close();
    }
  });

  it("when the keys page is used from the keyboard at 360 px, then the create dialog takes focus, Escape gives it back, and nothing overflows", async () => {
    const world = await teamWithDomain(api);
    const { context, page } = await userBrowser(ui.browser, system, { width: 360, height: 740, colorScheme: "dark" });
    try {
      await signIn(page, world.owner.email);
      await page.goto("/api-keys");
      await page.getByRole("heading", { name: "No active API keys" }).waitFor();
      expect(Number(await page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(360);
      const open = page.getByRole("button", { name: "Create key" }).first();
      await open.focus();
      await page.keyboard.press("Enter");
      const form = page.getByRole("dialog", { name: "Create an API key" });
      await form.waitFor();
      await form.getByLabel("Name").and(page.locator(":focus")).waitFor();
      // submitting without a name or scope says what is missing, in the form
      await form.getByRole("button", { name: "Create key" }).click();
      await form.getByText("Give the key a name").waitFor();
      await form.getByText("Pick at least one scope").waitFor();
      await page.keyboard.press("Escape");
      await form.waitFor({ state: "detached" });
      await open.and(page.locator(":focus")).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("when a webhook is added for a local receiver, then its secret is shown once and signs the delivery; the log shows it, redelivers it, and shows a 409 with the API's message", async () => {
    const world = await teamWithDomain(api);
    const rx = await Receiver.start();
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await signIn(page, world.owner.email);
      await page.goto("/webhooks");
      await page.getByRole("heading", { name: "No webhooks yet" }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Add webhook" }).first().click();
      const form = page.getByRole("dialog", { name: "Add a webhook" });
      // a URL the API refuses: the form shows the API's own message
      const refusedUrl = "http://metadata.internal/hook";
      const byApi = await api<{ error: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, {
        token: world.owner.token,
        body: { url: refusedUrl, events: ["email.received"] },
      });
      expect(byApi.status).toBe(400);
      await form.getByLabel("Payload URL").fill(refusedUrl);
      await form.getByRole("button", { name: "Add webhook" }).click();
      await form.getByRole("alert").filter({ hasText: byApi.body.error }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await form.getByLabel("Payload URL").fill(rx.url);
      expect(await form.getByRole("checkbox", { name: "email.received" }).isChecked()).toBe(true);
      await form.getByRole("button", { name: "Add webhook" }).click();
      const shown = page.getByRole("dialog", { name: "Webhook added" });
      const secret = await shown.getByLabel("Signing secret", { exact: true }).inputValue();
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      await shown.getByRole("button", { name: "I have stored it" }).click();
      await page.getByRole("link", { name: `Delivery log of ${rx.url}` }).waitFor();

      // a mail to the team: the receiver gets it, signed with the secret the console showed
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, alias("hook"));
      const subject = `Hooked ${randomBytes(3).toString("hex")}`;
      expect(
        (await sendMail(system.ports.smtp, { from: "sender@example.org", to: inbox.full_address, subject, text: "hi" })).data?.code,
      ).toBe(250);
      const first = await waitFor(() => rx.deliveries(secret)[0], { what: "the delivery", timeoutMs: 15_000 });
      expect(first.body.data).toMatchObject({ subject });

      await page.getByRole("link", { name: `Delivery log of ${rx.url}` }).click();
      await page.getByRole("heading", { name: "Delivery log" }).waitFor();
      const redeliverFirst = page.getByRole("button", { name: `Redeliver ${first.deliveryId.slice(0, 8)} (attempt 1)` });
      await redeliverFirst.waitFor();
      const entry = page.getByRole("row").filter({ hasText: first.deliveryId.slice(0, 8) });
      await entry.getByText("Delivered · 200").waitFor();
      await entry.getByText("email.received").waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await redeliverFirst.click();
      await page.getByRole("status").filter({ hasText: "is queued again" }).waitFor();
      const again = await waitFor(() => rx.deliveries(secret)[1], { what: "the redelivery", timeoutMs: 15_000 });
      expect(again.deliveryId).toBe(first.deliveryId);
      expect(again.hit.raw.equals(first.hit.raw)).toBe(true);
      // the log gains the new attempt (it refreshes by itself)
      await waitFor(async () => (await page.getByRole("button", { name: /^Redeliver / }).count()) === 2, {
        what: "two attempts in the log",
        timeoutMs: 15_000,
      });
      await page.getByRole("group", { name: "Attempts" }).getByText("2", { exact: true }).waitFor();

      // disabled webhook: the API refuses with 409, and the console shows its message
      await page.getByRole("button", { name: "Edit" }).click();
      const edit = page.getByRole("dialog", { name: "Edit webhook" });
      await edit.getByLabel("Enabled").uncheck();
      await edit.getByRole("button", { name: "Save webhook" }).click();
      await edit.waitFor({ state: "detached" });
      await page.getByText("Disabled", { exact: true }).first().waitFor();
      // both rows are attempts of that one delivery now
      await redeliverFirst.first().click();
      const refused = page.getByRole("alert").filter({ hasText: "Not redelivered" });
      await refused.waitFor();
      const hookId = new URL(page.url()).pathname.split("/").pop();
      const direct = await api<{ error: string; code: string }>(
        "POST",
        `/orgs/${world.orgId}/teams/${world.teamId}/webhooks/${hookId}/deliveries/${first.deliveryId}/redeliver`,
        {
          token: world.owner.token,
        },
      );
      expect(direct.status).toBe(409);
      expect(await refused.textContent()).toContain(direct.body.error);
      expect(rx.hits).toHaveLength(2);

      // delete, after a confirmation
      await page.getByRole("link", { name: "All webhooks" }).click();
      await page.getByRole("button", { name: `Actions for ${rx.url}` }).click();
      await page.getByRole("menuitem", { name: "Delete" }).click();
      await page.getByRole("dialog", { name: "Delete this webhook?" }).getByRole("button", { name: "Delete webhook" }).click();
      await page.getByRole("heading", { name: "No webhooks yet" }).waitFor();
      const left = await api<{ total: number }>("GET", `/orgs/${world.orgId}/teams/${world.teamId}/webhooks`, { token: world.owner.token });
      expect(left.body.total).toBe(0);
    } finally {
      await context.close();
      await rx.close();
    }
  });
});
