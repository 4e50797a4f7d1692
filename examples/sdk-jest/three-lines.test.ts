// The SDK's three-line loop in a Jest test: create an inbox, make the app under test send to it,
// wait for the code. Here the "app" is a plain SMTP send with nodemailer.
import { BurnBox } from "@burnbox/sdk";
import nodemailer from "nodemailer";
import { exampleEnv, type ExampleEnv } from "../env";

describe("example: the SDK's three-line loop", () => {
  let env: ExampleEnv;
  let bb: BurnBox;
  beforeAll(() => {
    env = exampleEnv();
    bb = new BurnBox({ baseUrl: env.baseUrl, apiKey: env.apiKey });
  });

  it("receives the one-time code mailed to a fresh inbox", async () => {
    const inbox = await bb.createInbox({ domain_assignment_id: env.domainAssignmentId, ttl: "15m" });
    await sendWelcomeMail(env, inbox.full_address, "Your code is 493 817"); // your app does this
    const code = await bb.waitForCode(inbox.id, { subject: "Welcome", timeout: "30s" });

    expect(code).toBe("493817");
  });
});

async function sendWelcomeMail(env: ExampleEnv, to: string, text: string): Promise<void> {
  const transport = nodemailer.createTransport({ host: env.smtp.host, port: env.smtp.port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ from: "hello@app.example", to, subject: "Welcome to the app", text });
  } finally {
    transport.close();
  }
}
