// A browser test of a sign-up that mails a one-time code: Playwright (playwright-core, driving an
// installed Chromium) fills the form with a fresh BurnBox address, the test gets the code from
// BurnBox, types it in, and sees "verified".
import { BurnBox, type EmailReceivedData, type Inbox } from "@burnbox/sdk";
import { chromium, type Browser, type Page } from "playwright-core";
import { WebSocket } from "ws";
import { exampleEnv, type ExampleEnv } from "../env";
import { startSignupApp, type SignupApp } from "./app";

// the browser is Debian's chromium (CHROMIUM_PATH for another one), never `playwright install`
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

describe("example: a Playwright sign-up test", () => {
  let env: ExampleEnv;
  let bb: BurnBox;
  let app: SignupApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    env = exampleEnv();
    // `WebSocket` for stream() on Node 20; Node 22+ has a global one
    bb = new BurnBox({ baseUrl: env.baseUrl, apiKey: env.apiKey, WebSocket });
    app = await startSignupApp(env.smtp);
    browser = await chromium.launch({ executablePath: env.chromiumPath, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
  });
  afterEach(async () => {
    await page.context().close();
  });

  const signUp = async (inbox: Inbox) => {
    await page.goto(app.url);
    await page.getByLabel("Email").fill(inbox.full_address);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByText(`We sent a code to ${inbox.full_address}`).waitFor();
  };
  const verify = async (code: string) => {
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Verify" }).click();
    return page.getByRole("status").textContent();
  };

  it("signs up with a fresh address, waits for the code, types it in and is verified", async () => {
    const inbox = await bb.createInbox({ domain_assignment_id: env.domainAssignmentId, ttl: "15m" });
    await signUp(inbox);
    const code = await bb.waitForCode(inbox.id, { subject: "verification code", timeout: "30s" });

    expect(await verify(code)).toBe("verified");
  });

  it("signs up, follows the inbox live until the mail is in, reads the code from it, and is verified", async () => {
    const inbox = await bb.createInbox({ domain_assignment_id: env.domainAssignmentId, ttl: "15m" });
    const live = bb.stream(inbox.id);
    await live.ready;
    await signUp(inbox);
    let emailId: string | undefined;
    for await (const frame of live) {
      if (frame.type === "email.received") {
        emailId = (frame.data as EmailReceivedData).id;
        break;
      }
    }
    const email = await bb.getEmail(emailId!);
    const code = /verification code is (\d{6})/.exec(email.body_text ?? "")?.[1];

    expect(email.subject).toBe("Your verification code");
    expect(await verify(code!)).toBe("verified");
  });
});
