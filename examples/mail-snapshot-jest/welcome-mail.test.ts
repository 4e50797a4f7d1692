// A sign-up test that also checks what the new user sees: the welcome mail against its baseline,
// with the SDK's `toMatchMailSnapshot` matcher (extensions section 12). The first run writes the
// baseline (as jest writes its own snapshots); later runs compare with it, subject, sender, text,
// links and the rendered pictures (600 and 375 px, light and dark), with what changes on every send
// masked: the code, the link's token and the time by default, the user's name by the mask below.
// Re-baseline with BURNBOX_UPDATE_SNAPSHOTS=1 (or jest -u). WELCOME_RELEASE=broken mails the broken
// template in the second test, to see the failure as a test run prints it (README.md).
import { BurnBox, mailSnapshotMatchers, type MailSnapshotMatchers } from "@burnbox/sdk";
import { exampleEnv, welcomeRelease, type ExampleEnv } from "../env";
import { sendWelcomeMail, type Release } from "./welcome-mail";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- jest's matchers are typed in its global namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the augmentation adds the SDK's matcher
    interface Matchers<R> extends MailSnapshotMatchers<R> {}
  }
}

/** The test users' names differ per sign-up; the baseline shows them as [name]. */
const NAMES = { pattern: "\\b(Ada|Grace|Linus)\\b", replace: "[name]" };

describe("example: the welcome mail against its baseline", () => {
  let env: ExampleEnv;
  let bb: BurnBox;
  beforeAll(() => {
    env = exampleEnv();
    bb = new BurnBox({ baseUrl: env.baseUrl, apiKey: env.apiKey });
    expect.extend(mailSnapshotMatchers(bb));
  });

  /** Signs a user up (here: the app's mail, sent as the app sends it) and answers the welcome mail. */
  async function signUp(firstName: string, release: Release = "good") {
    const inbox = await bb.createInbox({ domain_assignment_id: env.domainAssignmentId, ttl: "15m" });
    await sendWelcomeMail(env.smtp, inbox.full_address, firstName, release); // your app does this
    return (await bb.waitForEmail(inbox.id, { subject: "Welcome", timeout: "30s" })).data[0]!;
  }

  it("matches the baseline (written from this mail on the first run)", async () => {
    const email = await signUp("Ada");
    await expect(email).toMatchMailSnapshot("welcome-mail", { masks: [NAMES] });
  });

  it("matches it for another user, with another code, token and time", async () => {
    const email = await signUp("Grace", welcomeRelease());
    await expect(email).toMatchMailSnapshot("welcome-mail");
  });

  it("fails for the broken release, naming the unfilled variable, the dropped link and the dark-mode pictures", async () => {
    const email = await signUp("Linus", "broken");
    const failure = await expect(email)
      .toMatchMailSnapshot("welcome-mail")
      .then(() => null)
      .catch((err: Error) => err.message);
    expect(failure).toContain('does not match mail snapshot "welcome-mail"');
    expect(failure).toContain("+ Welcome to Example App, {{name}}");
    expect(failure).toContain("+Hi {{name}},");
    expect(failure).toContain("- https://app.example/help (Help centre)");
    expect(failure).toMatch(/600px dark: \d+\.\d\d% changed, diff http/);
  });
});
