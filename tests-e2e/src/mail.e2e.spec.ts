import { randomBytes } from "node:crypto";
import { waitFor } from "@burnbox/test-kit";
import { apiClient, openSocket, SmtpSession, sendMail } from "./clients";
import { SharedSystem } from "./shared-system";
import { createInbox, registerUser, teamWithDomain } from "./world";

interface InboxBody {
  id: string;
  full_address: string;
  expires_at: string;
  created_at: string;
  email_count: number;
  unread_count: number;
}
interface EmailBody {
  id: string;
  inbox_id: string;
  is_read: boolean;
  attachments: Array<{ id: string; filename: string; content_type: string; size_bytes: number }>;
}
type Envelope = { error: string; code: string };

const CRLF = "\r\n";
const TEXT_FILE = "plain notes\nline two\n";
const HTML_FILE = "<html><body><script>alert(1)</script><p>report</p></body></html>";

/** A multipart message with a text, an HTML and an executable attachment (the last is dropped at intake). */
function multipartMessage(to: string, subject: string): string {
  const boundary = `b-${randomBytes(6).toString("hex")}`;
  const part = (headers: string[], body: string) => [`--${boundary}`, ...headers, "", body].join(CRLF);
  return [
    "From: sender@example.org",
    `To: ${to}`,
    `Subject: ${subject}`,
    `Message-ID: <${randomBytes(8).toString("hex")}@e2e.test>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    "",
    part(["Content-Type: text/plain; charset=utf-8"], "See the attached files."),
    part(
      [
        'Content-Type: text/plain; name="notes.txt"',
        'Content-Disposition: attachment; filename="notes.txt"',
        "Content-Transfer-Encoding: base64",
      ],
      Buffer.from(TEXT_FILE).toString("base64"),
    ),
    part(
      [
        'Content-Type: text/html; name="r\u00e9sum\u00e9.html"',
        "Content-Disposition: attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.html",
        "Content-Transfer-Encoding: base64",
      ],
      Buffer.from(HTML_FILE).toString("base64"),
    ),
    part(
      [
        'Content-Type: application/octet-stream; name="setup.exe"',
        'Content-Disposition: attachment; filename="setup.exe"',
        "Content-Transfer-Encoding: base64",
      ],
      Buffer.from("MZ not really a program").toString("base64"),
    ),
    `--${boundary}--`,
  ].join(CRLF);
}

/** Inboxes and mail (contract notes): extend, delete, read flags, attachments, raw source and files. */
describe("mail through the public API and SMTP", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let world: Awaited<ReturnType<typeof teamWithDomain>>;

  beforeAll(async () => {
    world = await teamWithDomain(api);
  });

  const alias = (label: string) => `${label}-${randomBytes(3).toString("hex")}`;
  const newInbox = async (label: string): Promise<InboxBody> => {
    const res = await api<InboxBody>("POST", "/inboxes", {
      token: world.owner.token,
      body: { domain_assignment_id: world.assignmentId, alias: alias(label) },
    });
    if (res.status !== 201) throw new Error(`inbox: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  /** GET without following redirects, keeping the body as bytes. */
  async function download(path: string, token: string) {
    const res = await fetch(`${system.gatewayUrl}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` }, redirect: "manual" });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  async function deliver(to: string, subject: string, text = "hello"): Promise<EmailBody> {
    const sent = await sendMail(system.ports.smtp, { from: "sender@example.org", to, subject, text });
    expect(sent.data?.code).toBe(250);
    return receivedEmail(to, subject);
  }

  async function receivedEmail(to: string, subject: string): Promise<EmailBody> {
    const inbox = await api<{ data: InboxBody[] }>("GET", `/inboxes?q=${encodeURIComponent(to.split("@")[0] ?? "")}`, {
      token: world.owner.token,
    });
    const inboxId = inbox.body.data.find((i) => i.full_address === to)?.id ?? "";
    const list = await api<{ data: Array<{ id: string; subject: string }> }>(
      "GET",
      `/inboxes/${inboxId}/emails?q=${encodeURIComponent(subject)}`,
      {
        token: world.owner.token,
      },
    );
    const id = list.body.data[0]?.id;
    if (!id) throw new Error(`no email "${subject}" in ${to}`);
    return (await api<EmailBody>("GET", `/emails/${id}`, { token: world.owner.token })).body;
  }

  const createKey = async (scopes: string[]) => {
    const res = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "mail", scopes },
    });
    if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.raw_key;
  };

  describe("extending an inbox", () => {
    it("when no duration is given, then the inbox expires its original TTL from now", async () => {
      const inbox = await newInbox("ext");
      const ttl = Date.parse(inbox.expires_at) - Date.parse(inbox.created_at);
      const before = Date.now();
      const res = await api<InboxBody>("POST", `/inboxes/${inbox.id}/extend`, { token: world.owner.token, body: {} });
      expect(res.status).toBe(200);
      expect(Date.parse(res.body.expires_at)).toBeGreaterThanOrEqual(before + ttl - 1000);
      expect(Date.parse(res.body.expires_at)).toBeLessThanOrEqual(Date.now() + ttl + 1000);
    });

    it("when an explicit duration is given, then the inbox expires that long from now", async () => {
      const inbox = await newInbox("ext");
      const before = Date.now();
      const res = await api<InboxBody>("POST", `/inboxes/${inbox.id}/extend`, { token: world.owner.token, body: { duration: "2h" } });
      expect(res.status).toBe(200);
      expect(Date.parse(res.body.expires_at)).toBeGreaterThanOrEqual(before + 7_200_000 - 1000);
      const again = await api<InboxBody>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token });
      expect(again.body.expires_at).toBe(res.body.expires_at);
    });

    it("when the extension would pass the maximum TTL, or the duration is zero or negative, then 400 and nothing changes", async () => {
      const inbox = await newInbox("ext");
      for (const duration of ["25h", "0s", "-1h"]) {
        const res = await api<Envelope>("POST", `/inboxes/${inbox.id}/extend`, { token: world.owner.token, body: { duration } });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe("validation_error");
      }
      const again = await api<InboxBody>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token });
      expect(again.body.expires_at).toBe(inbox.expires_at);
    });

    it("when an outsider or a key without team.inboxes.manage extends, then 404 and 403", async () => {
      const inbox = await newInbox("ext");
      const outsider = await registerUser(api, "outsider");
      const res = await api<Envelope>("POST", `/inboxes/${inbox.id}/extend`, { token: outsider.token, body: {} });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "inbox not found", code: "not_found" });
      const key = await createKey(["team.inboxes.view"]);
      expect((await api("POST", `/inboxes/${inbox.id}/extend`, { token: key, body: {} })).status).toBe(403);
    });
  });

  describe("deleting an inbox", () => {
    it("when the inbox is deleted, then 204, it is 404, SMTP refuses its address with 550 and its sockets are closed", async () => {
      const inbox = await newInbox("del");
      const email = await deliver(inbox.full_address, "before delete");
      const ticket = await api<{ ticket: string }>("POST", "/ws/ticket", { token: world.owner.token });
      const socket = await openSocket(`${system.wsUrl}/api/v1/ws/inboxes/${inbox.id}?ticket=${ticket.body.ticket}`);
      const closed = new Promise<number>((resolve) => socket.ws.once("close", (code) => resolve(code)));

      const res = await api("DELETE", `/inboxes/${inbox.id}`, { token: world.owner.token });
      expect(res.status).toBe(204);
      expect((await api("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).status).toBe(404);
      expect((await api("GET", `/emails/${email.id}`, { token: world.owner.token })).status).toBe(404);
      const sent = await sendMail(system.ports.smtp, { from: "a@example.org", to: inbox.full_address, subject: "x", text: "x" });
      expect(sent.rcpt.code).toBe(550);
      expect(await closed).toBe(1000);
      expect(socket.frames).toContainEqual(expect.objectContaining({ type: "inbox.deleted" }));
    });

    it("when an outsider or a key without team.inboxes.manage deletes, then 404 and 403 and the inbox stays", async () => {
      const inbox = await newInbox("del");
      const outsider = await registerUser(api, "outsider");
      expect((await api("DELETE", `/inboxes/${inbox.id}`, { token: outsider.token })).status).toBe(404);
      const key = await createKey(["team.inboxes.view"]);
      expect((await api("DELETE", `/inboxes/${inbox.id}`, { token: key })).status).toBe(403);
      expect((await api("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).status).toBe(200);
    });
  });

  describe("listing inboxes", () => {
    it("when filtered by q and status, then only the matching inboxes are listed", async () => {
      const tag = randomBytes(3).toString("hex");
      const inbox = await createInbox(api, world.owner.token, world.assignmentId, `find-${tag}`);
      const other = await newInbox("other");
      const byQ = await api<{ data: InboxBody[] }>("GET", `/inboxes?q=${tag}`, { token: world.owner.token });
      expect(byQ.body.data.map((i) => i.id)).toEqual([inbox.id]);
      const active = await api<{ data: InboxBody[] }>("GET", `/inboxes?status=active&q=${tag}`, { token: world.owner.token });
      expect(active.body.data.map((i) => i.id)).toEqual([inbox.id]);
      const expired = await api<{ data: InboxBody[] }>("GET", `/inboxes?status=expired&per_page=100`, { token: world.owner.token });
      expect(expired.body.data.map((i) => i.id)).not.toContain(other.id);
      const bad = await api<Envelope>("GET", "/inboxes?status=sleeping", { token: world.owner.token });
      expect(bad.status).toBe(400);
    });
  });

  describe("read flags", () => {
    it("when an email is marked read and unread, then the flag and the inbox's unread count follow", async () => {
      const inbox = await newInbox("read");
      const email = await deliver(inbox.full_address, "flag me");
      expect(email.is_read).toBe(false);
      const read = await api<EmailBody>("PATCH", `/emails/${email.id}`, { token: world.owner.token, body: { is_read: true } });
      expect(read.status).toBe(200);
      expect(read.body.is_read).toBe(true);
      expect((await api<InboxBody>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).body.unread_count).toBe(0);
      const unread = await api<EmailBody>("PATCH", `/emails/${email.id}`, { token: world.owner.token, body: { is_read: false } });
      expect(unread.body.is_read).toBe(false);
      expect((await api<EmailBody>("GET", `/emails/${email.id}`, { token: world.owner.token })).body.is_read).toBe(false);
    });

    it("when is_read is missing or not a boolean, then 400; an outsider 404; a view-only key 403", async () => {
      const inbox = await newInbox("read");
      const email = await deliver(inbox.full_address, "refuse me");
      expect((await api("PATCH", `/emails/${email.id}`, { token: world.owner.token, body: {} })).status).toBe(400);
      expect((await api("PATCH", `/emails/${email.id}`, { token: world.owner.token, body: { is_read: "yes" } })).status).toBe(400);
      const outsider = await registerUser(api, "outsider");
      const res = await api<Envelope>("PATCH", `/emails/${email.id}`, { token: outsider.token, body: { is_read: true } });
      expect(res.body).toEqual({ error: "email not found", code: "not_found" });
      const key = await createKey(["team.emails.view"]);
      expect((await api("PATCH", `/emails/${email.id}`, { token: key, body: { is_read: true } })).status).toBe(403);
      expect((await api<EmailBody>("GET", `/emails/${email.id}`, { token: world.owner.token })).body.is_read).toBe(false);
    });

    it("when all emails are marked read, then the answer counts them and none is unread", async () => {
      const inbox = await newInbox("all");
      await deliver(inbox.full_address, "one");
      await deliver(inbox.full_address, "two");
      const res = await api<{ marked: number }>("POST", `/inboxes/${inbox.id}/emails/mark-all-read`, { token: world.owner.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ marked: 2 });
      expect((await api<InboxBody>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).body.unread_count).toBe(0);
      const again = await api<{ marked: number }>("POST", `/inboxes/${inbox.id}/emails/mark-all-read`, { token: world.owner.token });
      expect(again.body).toEqual({ marked: 0 });
    });

    it("when an outsider or a view-only key marks all read, then 404 and 403", async () => {
      const inbox = await newInbox("all");
      const outsider = await registerUser(api, "outsider");
      expect((await api("POST", `/inboxes/${inbox.id}/emails/mark-all-read`, { token: outsider.token })).status).toBe(404);
      const key = await createKey(["team.emails.view"]);
      expect((await api("POST", `/inboxes/${inbox.id}/emails/mark-all-read`, { token: key })).status).toBe(403);
    });
  });

  describe("deleting an email", () => {
    it("when an email is deleted, then 204 and it is gone from the inbox", async () => {
      const inbox = await newInbox("rm");
      const email = await deliver(inbox.full_address, "delete me");
      expect((await api("DELETE", `/emails/${email.id}`, { token: world.owner.token })).status).toBe(204);
      expect((await api("GET", `/emails/${email.id}`, { token: world.owner.token })).status).toBe(404);
      expect((await api<InboxBody>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).body.email_count).toBe(0);
    });

    it("when an outsider or a view-only key deletes an email, then 404 and 403 and it stays", async () => {
      const inbox = await newInbox("rm");
      const email = await deliver(inbox.full_address, "keep me");
      const outsider = await registerUser(api, "outsider");
      expect((await api("DELETE", `/emails/${email.id}`, { token: outsider.token })).status).toBe(404);
      const key = await createKey(["team.emails.view"]);
      expect((await api("DELETE", `/emails/${email.id}`, { token: key })).status).toBe(403);
      expect((await api("GET", `/emails/${email.id}`, { token: world.owner.token })).status).toBe(200);
    });
  });

  describe("attachments, raw source and files", () => {
    let inbox: InboxBody;
    let email: EmailBody;
    let sent: string;

    beforeAll(async () => {
      inbox = await newInbox("att");
      sent = multipartMessage(inbox.full_address, "with files");
      const s = await SmtpSession.open(system.ports.smtp);
      try {
        expect((await s.command("MAIL FROM:<sender@example.org>")).code).toBe(250);
        expect((await s.command(`RCPT TO:<${inbox.full_address}>`)).code).toBe(250);
        expect((await s.data(sent)).code).toBe(250);
      } finally {
        await s.quit();
      }
      email = await receivedEmail(inbox.full_address, "with files");
    });

    const attachmentNamed = (name: string) => {
      const a = email.attachments.find((x) => x.filename === name);
      if (!a) throw new Error(`no attachment ${name} in ${JSON.stringify(email.attachments)}`);
      return a;
    };

    it("when a message has a text, an HTML and an executable attachment, then the two others are stored", () => {
      expect(email.attachments.map((a) => a.filename).sort()).toEqual(["notes.txt", "r\u00e9sum\u00e9.html"]);
    });

    it("when an attachment is downloaded, then its bytes come back exactly, as a download that is never sniffed", async () => {
      const txt = attachmentNamed("notes.txt");
      const res = await download(`/emails/${email.id}/attachments/${txt.id}`, world.owner.token);
      expect(res.status).toBe(200);
      expect(res.bytes.equals(Buffer.from(TEXT_FILE))).toBe(true);
      expect(res.headers.get("content-type")).toBe("text/plain");
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="notes.txt"');
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");

      const html = attachmentNamed("r\u00e9sum\u00e9.html");
      const page = await download(`/emails/${email.id}/attachments/${html.id}`, world.owner.token);
      expect(page.bytes.equals(Buffer.from(HTML_FILE))).toBe(true);
      expect(page.headers.get("content-type")).toBe("text/html");
      expect(page.headers.get("content-disposition")).toBe("attachment; filename=\"r_sum_.html\"; filename*=UTF-8''r%C3%A9sum%C3%A9.html");
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    });

    it("when the attachment belongs to another email, then 404", async () => {
      const other = await deliver(inbox.full_address, "no files");
      const res = await api<Envelope>("GET", `/emails/${other.id}/attachments/${attachmentNamed("notes.txt").id}`, {
        token: world.owner.token,
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "attachment not found", code: "not_found" });
    });

    it("when an outsider or a key without team.emails.view downloads, then 404 and 403", async () => {
      const path = `/emails/${email.id}/attachments/${attachmentNamed("notes.txt").id}`;
      const outsider = await registerUser(api, "outsider");
      const res = await api<Envelope>("GET", path, { token: outsider.token });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
      const key = await createKey(["team.inboxes.view"]);
      expect((await api("GET", path, { token: key })).status).toBe(403);
    });

    it("when the raw source is asked for, then it is the message as sent, as message/rfc822", async () => {
      const res = await download(`/emails/${email.id}/raw`, world.owner.token);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("message/rfc822");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      // the message's last line ends with the CRLF that precedes the end-of-data dot
      expect(res.bytes.toString("utf8")).toBe(`${sent}${CRLF}`);
      const outsider = await registerUser(api, "outsider");
      expect((await api("GET", `/emails/${email.id}/raw`, { token: outsider.token })).status).toBe(404);
    });

    it("when a file is asked for by its key, then its owners get it and everyone else a 404 envelope", async () => {
      const txt = attachmentNamed("notes.txt");
      const key = `${inbox.id}/${email.id}/${txt.id}`;
      const res = await download(`/files?key=${encodeURIComponent(key)}`, world.owner.token);
      expect(res.status).toBe(200);
      expect(res.bytes.equals(Buffer.from(TEXT_FILE))).toBe(true);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");

      const outsider = await registerUser(api, "outsider");
      const refused = await api<Envelope>("GET", `/files?key=${encodeURIComponent(key)}`, { token: outsider.token });
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ error: "file not found", code: "not_found" });
      for (const probe of ["../../etc/passwd", `${inbox.id}/${email.id}/nothing`, ".probe"]) {
        const res = await api<Envelope>("GET", `/files?key=${encodeURIComponent(probe)}`, { token: world.owner.token });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe("not_found");
      }
    });

    it("when the OpenAPI document is served, then the raw source is marked as an extension", async () => {
      const doc = await api<{ paths: Record<string, Record<string, Record<string, unknown>>> }>("GET", "/docs/openapi.json");
      expect(doc.body.paths["/emails/{id}/raw"]?.get?.["x-burnbox-extension"]).toBe(true);
      for (const [path, method] of [
        ["/inboxes/{id}/extend", "post"],
        ["/inboxes/{id}", "delete"],
        ["/emails/{id}", "patch"],
        ["/emails/{id}", "delete"],
        ["/inboxes/{id}/emails/mark-all-read", "post"],
        ["/emails/{id}/attachments/{aid}", "get"],
        ["/files", "get"],
      ] as const) {
        expect(doc.body.paths[path]?.[method]).toBeDefined();
      }
    });
  });

  it("when mail arrives after all were marked read, then the new one counts as unread", async () => {
    const inbox = await newInbox("late");
    await deliver(inbox.full_address, "first");
    await api("POST", `/inboxes/${inbox.id}/emails/mark-all-read`, { token: world.owner.token });
    await deliver(inbox.full_address, "second");
    await waitFor(async () => (await api<InboxBody>("GET", `/inboxes/${inbox.id}`, { token: world.owner.token })).body.unread_count === 1);
  });
});
