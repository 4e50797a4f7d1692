import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, sendMail } from "./clients";
import { seriousViolations } from "./console/axe";
import { attachConsole } from "./console/browser";
import { signIn, userBrowser } from "./console/world";
import { SharedSystem } from "./shared-system";
import { createInbox, teamWithDomain } from "./world";

/** The notifications of the console: the header's bell, live over /ws/notifications, and the list page. */
describe("the console: notifications", () => {
  const system = SharedSystem.attach();
  const ui = attachConsole(system);
  const api = apiClient(system.gatewayUrl);

  const unread = (token: string) => api<{ total: number }>("GET", "/notifications?unread=true", { token });

  it("when a mail arrives, then the bell's count goes up without a reload; marking read brings it down, and the list pages, filters and deletes", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `bell-${randomBytes(3).toString("hex")}`);
    await waitFor(async () => (await unread(world.owner.token)).body.total === 1, { what: "the inbox.created notification" });
    const mail = async (subject: string) =>
      expect(
        (await sendMail(system.ports.smtp, { from: "sender@example.org", to: inbox.full_address, subject, text: "hi" })).data?.code,
      ).toBe(250);

    const { context, page } = await userBrowser(ui.browser, system);
    try {
      const socket = page.waitForEvent("websocket", { predicate: (ws) => ws.url().includes("/api/v1/ws/notifications?ticket=") });
      await signIn(page, world.owner.email);
      await socket;
      await page.getByRole("link", { name: "Notifications, 1 unread" }).waitFor();
      await page.getByText("Live updates on").waitFor({ state: "attached" });
      // a marker that a reload would wipe
      await page.evaluate("window.bbMarker = 1");

      const subject = `Bell ${randomBytes(3).toString("hex")}`;
      await mail(subject);
      await page.getByRole("link", { name: "Notifications, 2 unread" }).waitFor();
      expect(await page.evaluate("window.bbMarker")).toBe(1);

      // the list, reached through the bell
      await page.getByRole("link", { name: "Notifications, 2 unread" }).click();
      await page.getByRole("heading", { name: "Notifications", level: 1 }).waitFor();
      await page.getByText(`From sender@example.org: ${subject}`).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // mark one read: the bell follows
      await page.getByRole("button", { name: `Mark read: From sender@example.org: ${subject}` }).click();
      await page.getByRole("link", { name: "Notifications, 1 unread" }).waitFor();
      expect((await unread(world.owner.token)).body.total).toBe(1);

      // a mail while the list is open shows in it at once
      const second = `Live ${randomBytes(3).toString("hex")}`;
      await mail(second);
      await page.getByText(`From sender@example.org: ${second}`).waitFor();
      await page.getByRole("link", { name: "Notifications, 2 unread" }).waitFor();

      // mark all read
      await page.getByRole("button", { name: "Mark all read" }).click();
      await page.getByRole("status").filter({ hasText: "Marked 2 read." }).waitFor();
      await page.getByRole("link", { name: "Notifications, 0 unread" }).waitFor();
      expect((await unread(world.owner.token)).body.total).toBe(0);

      // the Unread filter lives in the URL and says what to do when empty
      // (nothing is unread now, so the only "Unread" on the page is the filter's)
      await page.getByText("Unread", { exact: true }).click();
      await page.waitForURL(/[?&]show=unread/);
      await page.getByRole("heading", { name: "Nothing unread" }).waitFor();
      await page.reload();
      await page.getByRole("heading", { name: "Nothing unread" }).waitFor();
      await page.getByText("All", { exact: true }).click();

      // delete one
      await page.getByRole("button", { name: `Delete: From sender@example.org: ${subject}` }).click();
      await page.getByText(`From sender@example.org: ${subject}`).waitFor({ state: "detached" });
      const left = await api<{ total: number; data: Array<{ message: string }> }>("GET", "/notifications", { token: world.owner.token });
      expect(left.body.total).toBe(2);
      expect(left.body.data.map((n) => n.message)).not.toContain(`From sender@example.org: ${subject}`);
    } finally {
      await context.close();
    }
  });

  it("when there are more notifications than a page holds, then the list pages with the page in the URL", async () => {
    const world = await teamWithDomain(api);
    for (let i = 0; i < 3; i++) await createInbox(api, world.owner.token, world.assignmentId, `pg${i}-${randomBytes(3).toString("hex")}`);
    await waitFor(async () => (await unread(world.owner.token)).body.total === 3, { what: "three notifications" });
    const { context, page } = await userBrowser(ui.browser, system, { width: 360, height: 740 });
    try {
      await signIn(page, world.owner.email);
      await page.goto("/notifications?per_page=2");
      await page.getByText("3 in all").waitFor();
      expect(await page.getByRole("listitem").filter({ hasText: "inbox.created" }).count()).toBe(2);
      await page.getByRole("button", { name: "Page 2" }).click();
      await page.waitForURL(/[?&]page=2/);
      await waitFor(async () => (await page.getByRole("listitem").filter({ hasText: "inbox.created" }).count()) === 1, {
        what: "the second page",
      });
      expect(Number(await page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(360);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
  it("when the realtime service restarts, then the bell says it is reconnecting, comes back live by itself, and counts what arrived meanwhile", async () => {
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `rc-${randomBytes(3).toString("hex")}`);
    await waitFor(async () => (await unread(world.owner.token)).body.total === 1, { what: "the inbox.created notification" });
    const { context, page } = await userBrowser(ui.browser, system);
    try {
      await signIn(page, world.owner.email);
      await page.getByRole("link", { name: "Notifications, 1 unread" }).waitFor();
      await page.getByText("Live updates on").waitFor({ state: "attached" });

      await system.stopProcess("realtime-gateway");
      try {
        await page.getByText("Reconnecting for live updates…").waitFor({ state: "attached" });
        const subject = `Meanwhile ${randomBytes(3).toString("hex")}`;
        const sent = await sendMail(system.ports.smtp, { from: "sender@example.org", to: inbox.full_address, subject, text: "hi" });
        expect(sent.data?.code).toBe(250);
      } finally {
        await system.startProcess("realtime-gateway");
      }
      // no reload: the bell reconnects with a fresh ticket and refetches on open
      await page.getByText("Live updates on").waitFor({ state: "attached", timeout: 60_000 });
      await page.getByRole("link", { name: "Notifications, 2 unread" }).waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
    }
  });
});
