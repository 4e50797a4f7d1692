import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { EXIT, run, type Io } from "./program.js";

/** A stand-in for the BurnBox API: answers each request with what `route` says, and records it. */
async function fakeApi(route: (req: IncomingMessage) => { status: number; body: unknown }) {
  const seen: string[] = [];
  /** The JSON bodies the requests sent, by `METHOD path`. */
  const sent = new Map<string, unknown>();
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      if (raw) sent.set(`${req.method} ${req.url}`, JSON.parse(raw));
      const { status, body } = route(req);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, sent, close: () => new Promise<void>((r) => server.close(() => r())) };
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

describe("burnbox snapshot: save, compare, ls", () => {
  const ORG = "0193a0c4-0000-7000-8000-0000000000a1";
  const TEAM = "0193a0c4-0000-7000-8000-0000000000a2";
  const EMAIL = "0193a0c4-0000-7000-8000-00000000000e";
  const SNAP = "0193a0c4-0000-7000-8000-0000000000c5";
  const env = (url: string) => ({ BURNBOX_URL: url, BURNBOX_API_KEY: `bb_${"a".repeat(64)}`, BURNBOX_CONFIG: "/nonexistent/config.json" });
  const page = (data: unknown[]) => ({ data, pagination: { page: 1, per_page: 20, total: data.length, total_pages: 1 } });
  const snapshot = (latest: unknown = null) => ({
    id: SNAP,
    org_id: ORG,
    team_id: TEAM,
    name: "signup",
    email_id: EMAIL,
    subject: "Welcome, [name]",
    from: "Acme <noreply@acme.test>",
    text: "Hi [name],",
    links: [],
    masks: [],
    baseline_images: [],
    latest_comparison: latest,
    created_at: "2026-12-02T10:00:00.000Z",
    updated_at: "2026-12-02T10:00:00.000Z",
  });
  const picture = (width: number, scheme: string, changed_ratio: number) => ({
    width,
    scheme,
    changed_ratio,
    baseline_url: `/api/v1/orgs/${ORG}/teams/${TEAM}/snapshots/${SNAP}/images/baseline/${width}/${scheme}`,
    actual_url: `/api/v1/orgs/${ORG}/teams/${TEAM}/snapshots/${SNAP}/images/actual/${width}/${scheme}?comparison=c1`,
    diff_url: `/api/v1/orgs/${ORG}/teams/${TEAM}/snapshots/${SNAP}/images/diff/${width}/${scheme}?comparison=c1`,
  });
  const comparison = (match: boolean) => ({
    id: "c1",
    snapshot_id: SNAP,
    snapshot: "signup",
    email_id: EMAIL,
    match,
    max_changed_ratio: 0.001,
    subject: { baseline: "Welcome, [name]", actual: match ? "Welcome, [name]" : "Welcome, {{name}}", equal: match },
    from: { baseline: "Acme <noreply@acme.test>", actual: "Acme <noreply@acme.test>", equal: true },
    text: match
      ? { equal: true, diff: [] }
      : { equal: false, diff: [{ old_start: 1, old_lines: 1, new_start: 1, new_lines: 1, lines: ["-Hi [name],", "+Hi {{name}},"] }] },
    links: { added: [], removed: [], changed: [] },
    visual: [picture(600, "light", 0), picture(600, "dark", match ? 0 : 0.0125)],
    created_at: "2026-12-02T10:05:00.000Z",
  });
  /** The API as the SDK reads it: the email, its inbox (org and team), the team's snapshots by name, and compare. */
  const server = (opts: { existing?: boolean; match?: boolean }) =>
    fakeApi((req) => {
      const url = req.url!;
      if (req.method === "GET" && url === `/api/v1/emails/${EMAIL}`) return { status: 200, body: { ...email([]), body_text: "" } };
      if (req.method === "GET" && url === `/api/v1/inboxes/${INBOX}`)
        return { status: 200, body: { id: INBOX, org_id: ORG, team_id: TEAM } };
      if (req.method === "GET" && url.startsWith(`/api/v1/orgs/${ORG}/teams/${TEAM}/snapshots`))
        return { status: 200, body: page(opts.existing ? [snapshot(comparison(opts.match ?? true))] : []) };
      if (req.method === "POST" && url === `/api/v1/orgs/${ORG}/teams/${TEAM}/snapshots`) return { status: 201, body: snapshot() };
      if (req.method === "PUT" && url === `/api/v1/orgs/${ORG}/teams/${TEAM}/snapshots/${SNAP}`) return { status: 200, body: snapshot() };
      if (req.method === "POST" && url === `/api/v1/emails/${EMAIL}/compare`) {
        if (opts.existing === false) return { status: 404, body: { error: "no snapshot signup in this team", code: "not_found" } };
        return { status: 200, body: comparison(opts.match ?? true) };
      }
      return { status: 404, body: { error: `unexpected ${req.method} ${url}`, code: "not_found" } };
    });

  it("when an email is saved under a new name, then the snapshot is created with the masks and its id printed; an existing one is re-baselined", async () => {
    const api = await server({ existing: false });
    try {
      const t = io(env(api.url));
      expect(await run(["snapshot", "save", EMAIL, "signup", "--mask", "\\b(Alice|Bob)\\b=>[name]", "--mask", "ord-[0-9]+"], t.io)).toBe(
        EXIT.found,
      );
      expect(t.out).toEqual([`${SNAP}\tsignup\tcreated`]);
      expect(api.sent.get(`POST /api/v1/orgs/${ORG}/teams/${TEAM}/snapshots`)).toEqual({
        name: "signup",
        email_id: EMAIL,
        masks: [{ pattern: "\\b(Alice|Bob)\\b", replace: "[name]" }, { pattern: "ord-[0-9]+" }],
      });
    } finally {
      await api.close();
    }
    const again = await server({ existing: true });
    try {
      const t = io(env(again.url));
      expect(await run(["snapshot", "save", EMAIL, "signup"], t.io)).toBe(EXIT.found);
      expect(t.out).toEqual([`${SNAP}\tsignup\tre-baselined`]);
      expect(again.sent.get(`PUT /api/v1/orgs/${ORG}/teams/${TEAM}/snapshots/${SNAP}`)).toEqual({ email_id: EMAIL });
    } finally {
      await again.close();
    }
  });

  it("when the email matches, then compare prints match and each picture's ratio and exits 0, sending the threshold", async () => {
    const api = await server({ existing: true, match: true });
    try {
      const t = io(env(api.url));
      expect(await run(["snapshot", "compare", EMAIL, "signup", "--max-changed-ratio", "0.01"], t.io)).toBe(EXIT.found);
      expect(t.out).toEqual(["c1\tmatch\tsignup", "600px\tlight\t0.00% changed", "600px\tdark\t0.00% changed"]);
      expect(api.sent.get(`POST /api/v1/emails/${EMAIL}/compare`)).toEqual({ snapshot: "signup", max_changed_ratio: 0.01 });
    } finally {
      await api.close();
    }
  });

  it("when the email differs, then compare prints the readable diff with the diff picture's URL and exits 3; --json prints the comparison", async () => {
    const api = await server({ existing: true, match: false });
    try {
      const t = io(env(api.url));
      expect(await run(["snapshot", "compare", EMAIL, "signup"], t.io)).toBe(EXIT.differs);
      expect(t.out.join("\n").split("\n")).toEqual([
        "c1\tdiffers\tsignup",
        "600px\tlight\t0.00% changed",
        "600px\tdark\t1.25% changed",
        "subject:",
        "    - Welcome, [name]",
        "    + Welcome, {{name}}",
        "text:",
        "    @@ -1,1 +1,1 @@",
        "    -Hi [name],",
        "    +Hi {{name}},",
        "pictures (more than 0.10% of pixels changed):",
        `    600px dark: 1.25% changed, diff ${api.url}/api/v1/orgs/${ORG}/teams/${TEAM}/snapshots/${SNAP}/images/diff/600/dark?comparison=c1`,
      ]);
      expect(t.err).toEqual([`burnbox: email ${EMAIL} does not match snapshot "signup"`]);
      const asJson = io(env(api.url));
      expect(await run(["snapshot", "compare", EMAIL, "signup", "--json"], asJson.io)).toBe(EXIT.differs);
      expect(JSON.parse(asJson.out.join("\n"))).toMatchObject({
        id: "c1",
        match: false,
        visual: [{ changed_ratio: 0 }, { changed_ratio: 0.0125 }],
      });
    } finally {
      await api.close();
    }
  });

  it("when there is no such snapshot, then compare exits 1 with the 404; a bad ratio or mask is a usage error (64) and nothing is sent", async () => {
    const api = await server({ existing: false });
    try {
      const t = io(env(api.url));
      expect(await run(["snapshot", "compare", EMAIL, "signup"], t.io)).toBe(EXIT.error);
      expect(t.err).toEqual(["burnbox: 404 not_found: no snapshot signup in this team"]);
      const before = api.seen.length;
      expect(await run(["snapshot", "compare", EMAIL, "signup", "--max-changed-ratio", "2"], io(env(api.url)).io)).toBe(EXIT.usage);
      expect(await run(["snapshot", "save", EMAIL, "signup", "--mask", "=>x"], io(env(api.url)).io)).toBe(EXIT.usage);
      expect(await run(["snapshot", "compare", EMAIL], io(env(api.url)).io)).toBe(EXIT.usage);
      expect(api.seen.length).toBe(before);
    } finally {
      await api.close();
    }
  });

  it("when the team's snapshots are listed, then each row has id, name, email, updated and the latest result; without a team it is 64", async () => {
    const api = await server({ existing: true, match: false });
    try {
      const t = io(env(api.url));
      expect(await run(["snapshot", "ls", "--org", ORG, "--team", TEAM, "--name", "signup"], t.io)).toBe(EXIT.found);
      expect(t.out).toEqual([`${SNAP}\tsignup\t${EMAIL}\t2026-12-02T10:00:00.000Z\tdiffers`]);
      expect(api.seen).toEqual([`GET /api/v1/orgs/${ORG}/teams/${TEAM}/snapshots?name=signup`]);
      const none = io(env(api.url));
      expect(await run(["snapshot", "ls"], none.io)).toBe(EXIT.usage);
      expect(none.err.join("\n")).toContain("no team: pass --org <id> --team <id>");
    } finally {
      await api.close();
    }
  });
});
