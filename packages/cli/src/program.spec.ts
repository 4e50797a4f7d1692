import { createServer, type IncomingMessage, type Server } from "node:http";
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
