import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { EXIT, run, type Io } from "./program.js";

/** A stand-in for the BurnBox API: answers each request with what `route` says, and records it. */
async function fakeApi(route: (req: IncomingMessage) => { status: number; body: unknown }) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const { status, body } = route(req);
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function io(env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const it: Io = { out: (l) => out.push(l), err: (l) => err.push(l), env, stdin: () => Promise.resolve("") };
  return { io: it, out, err };
}

const INBOX = "0193a0c4-0000-7000-8000-000000000002";
const email = (codes: Array<{ value: string; context: string }>) => ({
  id: "0193a0c4-0000-7000-8000-00000000000e",
  inbox_id: INBOX,
  from_address: "noreply@acme.test",
  subject: "Your code",
  snippet: "",
  received_at: "2026-11-27T07:00:00.000Z",
  is_read: false,
  has_attachments: false,
  size_bytes: 10,
  extracted: { codes, links: [{ url: "https://acme.test/verify?t=1", text: "Verify", kind: "verify" }] },
});

describe("burnbox wait: what a shell script sees", () => {
  const env = (url: string) => ({ BURNBOX_URL: url, BURNBOX_API_KEY: `bb_${"a".repeat(64)}`, BURNBOX_CONFIG: "/nonexistent/config.json" });

  it("when the mail came, then --code prints the code and exits 0, with every matcher on the query", async () => {
    const api = await fakeApi(() => ({
      status: 200,
      body: { data: [email([{ value: "482913", context: "" }])], matched: 1, timed_out: false },
    }));
    try {
      const t = io(env(api.url));
      const code = await run(
        ["wait", INBOX, "--subject", "Verify", "--header", "X-Run: 1", "--header", "X-Env: ci", "--unread", "--timeout", "5s", "--code"],
        t.io,
      );
      expect({ code, out: t.out }).toEqual({ code: EXIT.found, out: ["482913"] });
      const q = new URL(api.seen[0]!.split(" ")[1]!, api.url).searchParams;
      expect([q.get("subject"), q.getAll("header"), q.get("unread"), q.get("timeout"), q.get("count")]).toEqual([
        "Verify",
        ["X-Run: 1", "X-Env: ci"],
        "true",
        "5s",
        "1",
      ]);
    } finally {
      await api.close();
    }
  });

  it("when the wait timed out, then it exits 2 and --json still prints the answer", async () => {
    const api = await fakeApi(() => ({ status: 200, body: { data: [], matched: 0, timed_out: true } }));
    try {
      const t = io(env(api.url));
      expect(await run(["wait", INBOX, "--timeout", "0", "--json"], t.io)).toBe(EXIT.timedOut);
      expect(JSON.parse(t.out.join("\n"))).toEqual({ data: [], matched: 0, timed_out: true });
      expect(t.err.join("")).toContain("timed out");
    } finally {
      await api.close();
    }
  });

  it("when the server refuses, then it exits 1 with the status and code; a bad flag exits 64", async () => {
    const api = await fakeApi(() => ({ status: 400, body: { error: "timeout must be at most 120s", code: "validation_error" } }));
    try {
      const t = io(env(api.url));
      expect(await run(["wait", INBOX, "--timeout", "3m"], t.io)).toBe(EXIT.error);
      expect(t.err.join("")).toContain("400 validation_error: timeout must be at most 120s");
      expect(await run(["wait", INBOX, "--count", "0"], io(env(api.url)).io)).toBe(EXIT.usage);
      expect(await run(["wait", INBOX, "--code", "--link"], io(env(api.url)).io)).toBe(EXIT.usage);
    } finally {
      await api.close();
    }
  });

  it("when --link is given a kind, then the URL of that kind is printed; a mail without a code exits 1", async () => {
    const api = await fakeApi(() => ({ status: 200, body: { data: [email([])], matched: 1, timed_out: false } }));
    try {
      const t = io(env(api.url));
      expect(await run(["wait", INBOX, "--link", "verify"], t.io)).toBe(EXIT.found);
      expect(t.out).toEqual(["https://acme.test/verify?t=1"]);
      const noCode = io(env(api.url));
      expect(await run(["wait", INBOX, "--code"], noCode.io)).toBe(EXIT.error);
      expect(noCode.err.join("")).toContain("holds no code");
    } finally {
      await api.close();
    }
  });
});

describe("printing what the server sent", () => {
  const hostile = "Hi \x1b]0;pwned\x07\x1b[2Jthere\u009b2J \x1b]52;c;ZXZpbA==\x1b\\!";
  const full = {
    ...email([]),
    subject: hostile,
    from_address: "evil\x1b[8m@acme.test",
    to_address: "me@acme.test",
    body_text: "line 1\r\n\x1b[31mred\x1b[0m\tcell\rover\x1b]0;t",
    body_html: null,
    attachments: [{ id: "a", filename: "bill\x1b[2J.pdf\nFake: header", content_type: "application/pdf", size_bytes: 1 }],
  };
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
  const env = (url: string) => ({ BURNBOX_URL: url, BURNBOX_API_KEY: `bb_${"a".repeat(64)}`, BURNBOX_CONFIG: "/nonexistent/config.json" });

  it("when a mail's fields hold escape sequences, then read, ls and wait print them without; --json keeps them, escaped", async () => {
    const api = await fakeApi((req) =>
      req.url!.includes("/wait")
        ? { status: 200, body: { data: [full], matched: 1, timed_out: false } }
        : req.url!.includes("/emails?") || req.url!.endsWith("/emails")
          ? { status: 200, body: { data: [full], pagination: { page: 1, per_page: 20, total: 1, total_pages: 1 } } }
          : { status: 200, body: full },
    );
    try {
      const read = io(env(api.url));
      expect(await run(["read", full.id], read.io)).toBe(EXIT.found);
      const text = read.out.join("\n");
      expect(text).not.toMatch(controls);
      expect(read.out).toEqual([
        "From: evil@acme.test",
        "To: me@acme.test",
        "Subject: Hi there !",
        `Date: ${full.received_at}`,
        "Attachments: bill.pdf Fake: header",
        "",
        "line 1\nred\tcell\nover0;t",
      ]);

      const ls = io(env(api.url));
      expect(await run(["ls", INBOX], ls.io)).toBe(EXIT.found);
      expect(ls.out).toEqual([`${full.id}\t${full.received_at}\tevil@acme.test\tHi there !`]);
      const wait = io(env(api.url));
      expect(await run(["wait", INBOX], wait.io)).toBe(EXIT.found);
      expect(wait.out).toEqual(ls.out);

      const asJson = io(env(api.url));
      expect(await run(["read", full.id, "--json"], asJson.io)).toBe(EXIT.found);
      const printed = asJson.out.join("\n");
      expect(printed).not.toMatch(controls);
      expect(printed).toContain("\\u001b]0;pwned\\u0007");
      expect(printed).toContain("\\u009b2J");
      expect(JSON.parse(printed)).toMatchObject({ subject: hostile, body_text: full.body_text });
    } finally {
      await api.close();
    }
  });

  it("when the server's error message holds escape sequences, then stderr shows it without", async () => {
    const api = await fakeApi(() => ({ status: 404, body: { error: "no \x1b]0;owned\x07such\x1b[2J email", code: "not_found" } }));
    try {
      const t = io(env(api.url));
      expect(await run(["read", full.id], t.io)).toBe(EXIT.error);
      expect(t.err).toEqual(["burnbox: 404 not_found: no such email"]);
    } finally {
      await api.close();
    }
  });
});

describe("stored logins belong to the URL they were made at", () => {
  /** A server that records the Authorization header of every request and answers an empty page. */
  async function recorder() {
    const auth: Array<string | undefined> = [];
    const api = await fakeApi((req) => {
      auth.push(req.headers.authorization);
      return { status: 200, body: { data: [], pagination: { page: 1, per_page: 20, total: 0, total_pages: 0 } } };
    });
    return { ...api, auth };
  }
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), "burnbox-cli-spec-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const configAt = (content: unknown) => {
    const file = path.join(dir, "config.json");
    writeFileSync(file, JSON.stringify(content));
    return file;
  };

  it("when logged in at one URL, then a command for another sends no credential and says to log in there; the first still gets it", async () => {
    const [home, other] = [await recorder(), await recorder()];
    try {
      const file = configAt({ base_url: home.url, logins: { [home.url]: { access_token: "tok-home" } } });
      const viaFlag = io({ BURNBOX_CONFIG: file });
      expect(await run(["--url", other.url, "ls"], viaFlag.io)).toBe(EXIT.error);
      expect(viaFlag.err.join("\n")).toContain(`not logged in to ${other.url}: run \`burnbox login --url ${other.url}\``);
      expect(viaFlag.err.join("\n")).toContain(`the stored logins are for ${home.url} only`);
      expect(await run(["ls"], io({ BURNBOX_CONFIG: file, BURNBOX_URL: `${other.url}/` }).io)).toBe(EXIT.error);
      expect(other.auth).toEqual([]);

      expect(await run(["ls"], io({ BURNBOX_CONFIG: file }).io)).toBe(EXIT.found);
      expect(await run(["ls"], io({ BURNBOX_CONFIG: file, BURNBOX_URL: `${home.url}/api/v1` }).io)).toBe(EXIT.found);
      expect(home.auth).toEqual(["Bearer tok-home", "Bearer tok-home"]);
    } finally {
      await Promise.all([home.close(), other.close()]);
    }
  });

  it("when logged in at two URLs, then each gets its own token", async () => {
    const [a, b] = [await recorder(), await recorder()];
    try {
      const file = configAt({ base_url: a.url, logins: { [a.url]: { access_token: "tok-a" }, [b.url]: { access_token: "tok-b" } } });
      expect(await run(["ls"], io({ BURNBOX_CONFIG: file }).io)).toBe(EXIT.found);
      expect(await run(["--url", b.url, "ls"], io({ BURNBOX_CONFIG: file }).io)).toBe(EXIT.found);
      expect([a.auth, b.auth]).toEqual([["Bearer tok-a"], ["Bearer tok-b"]]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("when a file from before (tokens beside base_url) is read, then its tokens go to that URL only, and to the default URL when it names none", async () => {
    const [home, other] = [await recorder(), await recorder()];
    try {
      const legacy = configAt({ base_url: home.url, access_token: "tok-old", api_key: `bb_${"b".repeat(64)}` });
      expect(await run(["--url", other.url, "ls"], io({ BURNBOX_CONFIG: legacy }).io)).toBe(EXIT.error);
      expect(await run(["ls"], io({ BURNBOX_CONFIG: legacy }).io)).toBe(EXIT.found);
      expect(home.auth).toHaveLength(1);

      const noUrl = configAt({ access_token: "tok-default" });
      const t = io({ BURNBOX_CONFIG: noUrl });
      expect(await run(["--url", other.url, "ls"], t.io)).toBe(EXIT.error);
      expect(t.err.join("\n")).toContain("the stored logins are for http://localhost:8080 only");
      expect(other.auth).toEqual([]);
    } finally {
      await Promise.all([home.close(), other.close()]);
    }
  });

  it("when login succeeds at a second URL, then the file keeps both logins, each under its origin, and the new URL becomes the default", async () => {
    const tokens = { access_token: "tok-new", refresh_token: "ref-new" };
    const api = await fakeApi(() => ({
      status: 200,
      body: { user: { id: "u", email: "me@acme.test" }, tokens: { ...tokens, expires_in: 900, token_type: "Bearer" } },
    }));
    try {
      const file = configAt({ base_url: "http://old.example:8080", access_token: "tok-old" });
      const t = io({ BURNBOX_CONFIG: file, BURNBOX_PASSWORD: "pw", BURNBOX_URL: api.url });
      expect(await run(["login", "--email", "me@acme.test"], t.io)).toBe(EXIT.found);
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
        base_url: api.url,
        logins: { "http://old.example:8080": { access_token: "tok-old" }, [api.url]: tokens },
      });
    } finally {
      await api.close();
    }
  });
});
