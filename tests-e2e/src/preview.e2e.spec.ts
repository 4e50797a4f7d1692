import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, SmtpSession } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, registerUser, teamWithDomain } from "./world";

const CRLF = "\r\n";

/** The pixel size a PNG says it has (its IHDR chunk). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Previews (extensions section 12) through the public ports: the mail rendered by the renderer
 * deployable at each width and scheme, cached, and the 400 and 404 answers.
 */
describe("GET /emails/:id/preview", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;
  let emailId: string;
  const tag = randomBytes(3).toString("hex");

  const preview = async (id: string, query: string, token = world.owner.token) => {
    const res = await fetch(`${system.gatewayUrl}/api/v1/emails/${id}/preview?${query}`, { headers: { authorization: `Bearer ${token}` } });
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      cache: res.headers.get("x-burnbox-preview-cache"),
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  beforeAll(async () => {
    world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, `preview-${tag}`);
    const html = [
      "<!doctype html><html><head><style>",
      "body { background: #ffffff; color: #111111; font-family: Arial, sans-serif; }",
      "@media (prefers-color-scheme: dark) { body { background: #101418; color: #f0f0f0; } .button { background: #4a9eff; } }",
      ".button { display: inline-block; padding: 12px 20px; background: #0b5cff; color: #fff; }",
      "</style></head><body><h1>Confirm your address</h1><p>Your code is 481516.</p>",
      '<a class="button" href="https://app.example.org/verify?token=abc">Verify</a></body></html>',
    ].join("\n");
    const smtp = await SmtpSession.open(system.ports.smtp);
    try {
      expect((await smtp.command("MAIL FROM:<noreply@acme.example.org>")).code).toBe(250);
      expect((await smtp.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
      const message = [
        "From: Acme <noreply@acme.example.org>",
        `To: ${inbox.full_address}`,
        `Subject: Preview ${tag}`,
        `Message-ID: <${tag}@e2e.test>`,
        "MIME-Version: 1.0",
        "Content-Type: text/html; charset=utf-8",
        "",
        html,
      ].join(CRLF);
      expect((await smtp.data(message)).code).toBe(250);
    } finally {
      await smtp.quit();
    }
    emailId = await waitFor(
      async () => {
        const list = await api<{ data: Array<{ id: string; subject: string }> }>("GET", `/inboxes/${inbox.id}/emails`, {
          token: world.owner.token,
        });
        return list.body.data.find((e) => e.subject === `Preview ${tag}`)?.id ?? null;
      },
      { what: "the mail" },
    );
  });

  it("when asked at 1280, 600 and 375, then each answer is a PNG of that width", async () => {
    const answers = await Promise.all([1280, 600, 375].map((w) => preview(emailId, `width=${w}&scheme=light`)));
    answers.forEach((a, i) => {
      expect(a.status).toBe(200);
      expect(a.type).toBe("image/png");
      expect(pngSize(a.body).width).toBe([1280, 600, 375][i]);
    });
  });

  it("when the mail has dark-mode CSS, then the dark preview differs from the light one, and asking again answers from the cache", async () => {
    const light = await preview(emailId, "width=600&scheme=light&images=blocked");
    const dark = await preview(emailId, "width=600&scheme=dark&images=blocked");
    expect(dark.status).toBe(200);
    expect(pngSize(dark.body).width).toBe(600);
    expect(dark.body.equals(light.body)).toBe(false);
    const again = await preview(emailId, "width=600&scheme=dark&images=blocked");
    expect(again.cache).toBe("hit");
    expect(again.body.equals(dark.body)).toBe(true);
  });

  it.each(["width=800", "scheme=sepia", "images=always", "width=abc"])(
    "when the query is %s, then 400 in the error envelope",
    async (q) => {
      const res = await api<{ code: string }>("GET", `/emails/${emailId}/preview?${q}`, { token: world.owner.token });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_error");
    },
  );

  it("when the email is unknown or another team's, then 404 alike", async () => {
    const unknown = await api<{ code: string }>("GET", `/emails/00000000-0000-4000-8000-000000000000/preview`, {
      token: world.owner.token,
    });
    expect(unknown.status).toBe(404);
    const stranger = await registerUser(api);
    const foreign = await api<{ code: string }>("GET", `/emails/${emailId}/preview`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(unknown.body);
  });
});
