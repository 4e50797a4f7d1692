// A sign-up test in Playwright Test's own style: the `inbox` fixture is a fresh BurnBox inbox for the
// test (deleted after it), `waitForCode` waits for the code mailed to it.
import { expect, test as burnboxTest } from "@burnbox/playwright";
import nodemailer from "nodemailer";
import { exampleEnv } from "../env";
import { startSignupApp, type SignupApp } from "../signup-playwright/app";

// the app under test, one per worker: a sign-up form that mails a six-digit code over SMTP
const test = burnboxTest.extend<object, { app: SignupApp }>({
  app: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern: none
    async ({}, use) => {
      const app = await startSignupApp(exampleEnv().smtp);
      await use(app);
      await app.close();
    },
    { scope: "worker" },
  ],
});

test("signs up with a fresh address and types in the code it was mailed", async ({ page, app, inbox, waitForCode }) => {
  await page.goto(app.url);
  await page.getByLabel("Email").fill(inbox.full_address);
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.getByLabel("Code").fill(await waitForCode({ subject: "verification code" }));
  await page.getByRole("button", { name: "Verify" }).click();

  await expect(page.getByRole("status")).toHaveText("verified");
});

test("gets the confirmation link of a mail", async ({ inbox, waitForLink }) => {
  const { smtp } = exampleEnv();
  const mailer = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false, ignoreTLS: true });
  await mailer.sendMail({
    from: "hello@app.example",
    to: inbox.full_address,
    subject: "Confirm your address",
    html: `<p>Welcome! <a href="https://app.example/confirm?token=t-42">Confirm my address</a> · <a href="https://app.example/unsubscribe">Unsubscribe</a></p>`,
  }); // your app does this
  mailer.close();

  expect(await waitForLink({ kind: "verify", subject: "Confirm" })).toBe("https://app.example/confirm?token=t-42");
  expect(await waitForLink({ kind: "unsubscribe" })).toBe("https://app.example/unsubscribe");
});
