// Playwright Test fixtures over @burnbox/sdk: `inbox` is a fresh inbox per test (deleted after it),
// `waitForCode` / `waitForLink` / `waitForEmail` wait on the server for the mail sent to it.
import { BurnBox, BurnBoxError, type Inbox, type LinkKind, type WaitOptions, type WaitResponse } from "@burnbox/sdk";
import { test as base, expect } from "@playwright/test";
import { fromEnvironment } from "./env.js";

/** Where BurnBox is, and how each test's inbox is made; set under `use: { burnbox: {...} }`, or by the environment. */
export interface BurnBoxOptions {
  /** Where BurnBox answers (default `BURNBOX_URL`). */
  baseUrl?: string;
  /** A team API key, `bb_…` (default `BURNBOX_API_KEY`); it needs team.inboxes.create, .view, .manage and team.emails.view. */
  apiKey?: string;
  /** The team's domain assignment to create inboxes on (default `BURNBOX_DOMAIN_ASSIGNMENT_ID`). */
  domainAssignmentId?: string;
  /** How long each inbox lives, e.g. `"15m"` (default: the team's default TTL; it is deleted after its test anyway). */
  ttl?: string;
}

/** The options of one wait: the SDK's matchers and timeout (30 s by default), for the test's own inbox. */
export type WaitForOptions = Omit<WaitOptions, "signal">;

export interface BurnBoxFixtures {
  /** A fresh inbox for this test (`inbox.full_address` is what the app under test mails), deleted when the test ends. */
  inbox: Inbox;
  /** The first one-time code of the first mail to `inbox` that matches (mail that came before the call counts). */
  waitForCode: (options?: WaitForOptions) => Promise<string>;
  /** The URL of the first link of `kind` in the first matching mail to `inbox` (no kind: any but an unsubscribe link). */
  waitForLink: (options?: WaitForOptions & { kind?: LinkKind }) => Promise<string>;
  /** The server's answer once `count` (default 1) mails to `inbox` match; rejects with WaitTimeoutError when fewer came in time. */
  waitForEmail: (options?: WaitForOptions) => Promise<WaitResponse>;
}

export interface BurnBoxWorkerFixtures {
  /** The options above, per project or file (`test.use({ burnbox: { ttl: "5m" } })`). */
  burnbox: BurnBoxOptions;
  /** The client, one per worker: for what the fixtures do not cover (`burnboxClient.getEmail(id)`). */
  burnboxClient: BurnBox;
}

function settings(given: BurnBoxOptions): Required<Omit<BurnBoxOptions, "ttl">> & Pick<BurnBoxOptions, "ttl"> {
  const merged = { ...fromEnvironment(), ...given };
  const missing = [
    merged.baseUrl ? null : "baseUrl (BURNBOX_URL)",
    merged.apiKey ? null : "apiKey (BURNBOX_API_KEY)",
    merged.domainAssignmentId ? null : "domainAssignmentId (BURNBOX_DOMAIN_ASSIGNMENT_ID)",
  ].filter((m): m is string => m !== null);
  if (missing.length > 0)
    throw new Error(`@burnbox/playwright needs ${missing.join(", ")}: set them under use: { burnbox: {...} } or in the environment`);
  return merged as Required<Omit<BurnBoxOptions, "ttl">> & Pick<BurnBoxOptions, "ttl">;
}

/**
 * Playwright's `test` with the BurnBox fixtures. Use it in place of `@playwright/test`'s:
 *
 * ```ts
 * import { test, expect } from "@burnbox/playwright";
 *
 * test("sign up", async ({ page, inbox, waitForCode }) => {
 *   await page.getByLabel("Email").fill(inbox.full_address);
 *   await page.getByRole("button", { name: "Sign up" }).click();
 *   await page.getByLabel("Code").fill(await waitForCode({ subject: "verification code" }));
 * });
 * ```
 */
export const test = base.extend<BurnBoxFixtures, BurnBoxWorkerFixtures>({
  burnbox: [{}, { option: true, scope: "worker" }],

  burnboxClient: [
    async ({ burnbox }, use) => {
      const { baseUrl, apiKey } = settings(burnbox);
      await use(new BurnBox({ baseUrl, apiKey }));
    },
    { scope: "worker" },
  ],

  inbox: async ({ burnbox, burnboxClient }, use) => {
    const { domainAssignmentId, ttl } = settings(burnbox);
    const inbox = await base.step("create a BurnBox inbox", () =>
      burnboxClient.createInbox({ domain_assignment_id: domainAssignmentId, ...(ttl ? { ttl } : {}) }),
    );
    await use(inbox);
    await burnboxClient.deleteInbox(inbox.id).catch((err: unknown) => {
      // the test may have deleted it itself
      if (!(err instanceof BurnBoxError && err.status === 404)) throw err;
    });
  },

  waitForEmail: async ({ inbox, burnboxClient }, use) => {
    await use((options = {}) => base.step(`wait for mail to ${inbox.full_address}`, () => burnboxClient.waitForEmail(inbox.id, options)));
  },

  waitForCode: async ({ inbox, burnboxClient }, use) => {
    await use((options = {}) =>
      base.step(`wait for a code mailed to ${inbox.full_address}`, () => burnboxClient.waitForCode(inbox.id, options)),
    );
  },

  waitForLink: async ({ inbox, burnboxClient }, use) => {
    await use((options = {}) =>
      base.step(`wait for a ${options.kind ? `${options.kind} ` : ""}link mailed to ${inbox.full_address}`, () =>
        burnboxClient.waitForLink(inbox.id, options),
      ),
    );
  },
});

export { expect };
export type { Inbox, LinkKind };
