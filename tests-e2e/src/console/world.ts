import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { BurnBox } from "@burnbox/sdk";
import type { SharedSystem } from "../shared-system";
import { createInbox, newClientIp, STRONG_PASSWORD, teamWithDomain, type Api } from "../world";
import { consoleContext, type ConsoleContextOptions } from "./browser";

/**
 * A console user's browser: a fresh context speaking from a client IP of its own (X-Forwarded-For,
 * which the gateway trusts from the runner), so the per-IP sign-in limits of one test never count
 * another's.
 */
export async function userBrowser(
  browser: Browser,
  system: SharedSystem,
  options: ConsoleContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await consoleContext(browser, system, options);
  await context.setExtraHTTPHeaders({ "x-forwarded-for": newClientIp() });
  return { context, page: await context.newPage() };
}

/**
 * Addresses that receive mail: a team with a trusted domain, whose owner reads the inboxes through
 * the SDK as any client would. `address()` makes a new inbox; `link()` waits for a mail there and
 * gives its link.
 */
export async function mailWorld(api: Api, system: SharedSystem) {
  const world = await teamWithDomain(api);
  const owner = new BurnBox({ baseUrl: system.gatewayUrl, token: world.owner.token });
  return {
    world,
    owner,
    async address(label = "user"): Promise<{ inboxId: string; email: string }> {
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `${label}-${randomBytes(3).toString("hex")}`);
      return { inboxId: inbox.id, email: inbox.full_address };
    },
    /** The first link (not an unsubscribe link) of the first mail whose subject holds `subject`. */
    link(inboxId: string, subject: string): Promise<string> {
      return owner.waitForLink(inboxId, { subject, timeout: "20s" });
    },
  };
}

/** Signs in through the login page and waits for the signed-in shell. */
export async function signIn(page: Page, email: string, password = STRONG_PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: /^Account menu for / }).waitFor();
}

/**
 * Ends every session of the user `token` belongs to, then signs `email` in through the login page:
 * for the screenshot specs, which sign in anew for every picture and would otherwise meet the limit
 * of five sessions per user.
 */
export async function signInAfresh(page: Page, api: Api, token: string, email: string): Promise<void> {
  const freed = await api("DELETE", "/auth/sessions", { token });
  if (freed.status >= 300) throw new Error(`DELETE /auth/sessions answered ${freed.status}`);
  await signIn(page, email);
}

/** Signs out through the user menu and waits for the login page. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: /^Account menu for / }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.getByRole("heading", { name: "Sign in to BurnBox" }).waitFor();
}

export const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString("hex")}@example.test`;
