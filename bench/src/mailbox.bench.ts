/**
 * One message read three ways, in one run (issue 43, extensions section 11): the API's
 * `GET /emails/:id/raw` (through the gateway, a kept-alive connection), an IMAP `UID FETCH n
 * BODY.PEEK[]` on a logged-in, selected session, and a POP3 `RETR 1` on a logged-in session: a
 * warm-up that alternates the three, then BENCH_READS of each in a block of its own (so each
 * kind's CPU per read is its own), every read checked byte for byte against the stored bytes. Then the
 * same reads with a session of their own each time (connect, log in with the API key, read, log
 * out), as a mail client that polls does. The message is BENCH_SIZE bytes (default 8 KiB).
 * Run: node deploy/local/build.mjs && pnpm --filter @burnbox/bench mailbox   (Postgres, Redis and
 * NATS must be up; BENCH_READS: reads of each kind, default 500; BENCH_SESSIONS: default 100)
 */
import net from "node:net";
import os from "node:os";
import { apiClient, createInbox, SmtpSession, System, teamWithDomain } from "@burnbox/tests-e2e";
import { cpuPerUnit, machine, summary } from "./stats";

const READS = Number(process.env.BENCH_READS ?? 500);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100);
const SIZE = Number(process.env.BENCH_SIZE ?? 8192);
const WARMUP = 50;

/** A line-protocol client on node:net: `until(test)` resolves once the bytes so far pass the test, and consumes them. */
class Wire {
  private buf = Buffer.alloc(0);
  private waiter: (() => void) | null = null;
  private constructor(private readonly socket: net.Socket) {
    socket.on("data", (c: Buffer) => {
      this.buf = Buffer.concat([this.buf, c]);
      this.waiter?.();
    });
  }

  static async open(port: number): Promise<Wire> {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    socket.setNoDelay(true);
    return new Wire(socket);
  }

  /** Sends `line` (when given) and resolves with the answer once it ends with `end`. */
  async ask(line: string | null, end: string): Promise<Buffer> {
    if (line !== null) this.socket.write(`${line}\r\n`);
    return new Promise((resolve) => {
      const check = () => {
        const at = this.buf.indexOf(end);
        if (at < 0) return;
        const cut = this.buf.indexOf("\r\n", at + end.length - 2);
        const stop = cut < 0 ? this.buf.length : cut + 2;
        const out = this.buf.subarray(0, stop);
        this.buf = this.buf.subarray(stop);
        this.waiter = null;
        resolve(out);
      };
      this.waiter = check;
      check();
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

function message(to: string): string {
  const line = "The quick brown fox jumps over the lazy dog. 0123456789 abcdefghijklmnopqrstuvwxyz\r\n";
  const body = line.repeat(Math.max(1, Math.floor(SIZE / line.length)));
  return [
    "From: Bench <bench@acme.example>",
    `To: ${to}`,
    "Subject: one to read",
    "Message-ID: <read-me@acme.example>",
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
  ].join("\r\n");
}

async function main() {
  process.stdout.write(
    `machine: ${machine()} (shared with other work); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
  const system = await System.start({
    all: { BB_LOG_LEVEL: "warn" },
    "api-gateway": { BB_RATE_LIMIT_ENABLED: "false" },
  });
  try {
    const api = apiClient(system.gatewayUrl);
    const world = await teamWithDomain(api);
    const inbox = await createInbox(api, world.owner.token, world.assignmentId, "reader");
    const keyRes = await api<{ raw_key: string }>("POST", `/orgs/${world.orgId}/teams/${world.teamId}/api-keys`, {
      token: world.owner.token,
      body: { name: "bench", scopes: ["team.emails.view"] },
    });
    const key = keyRes.body.raw_key;
    const s = await SmtpSession.open(system.ports.smtp);
    await s.command("MAIL FROM:<bench@acme.example>");
    await s.command(`RCPT TO:<${inbox.full_address}>`);
    if ((await s.data(message(inbox.full_address))).code !== 250) throw new Error("the message was not accepted");
    await s.quit();
    let emailId = "";
    for (let i = 0; i < 100 && !emailId; i++) {
      const list = await api<{ data: Array<{ id: string }> }>("GET", `/inboxes/${inbox.id}/emails`, { token: key });
      emailId = list.body.data[0]?.id ?? "";
      if (!emailId) await new Promise((r) => setTimeout(r, 100));
    }
    if (!emailId) throw new Error("the message was not stored");
    const rawUrl = `${system.gatewayUrl}/api/v1/emails/${emailId}/raw`;
    const expected = Buffer.from(await (await fetch(rawUrl, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
    process.stdout.write(`message: ${expected.length} bytes\n`);

    const viaApi = async () => {
      const res = await fetch(rawUrl, { headers: { authorization: `Bearer ${key}` } });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200 || !bytes.equals(expected)) throw new Error(`API: ${res.status}`);
    };
    const imapLogin = async () => {
      const imap = await Wire.open(system.ports.imap);
      await imap.ask(null, "* OK");
      await imap.ask(`a LOGIN "${inbox.full_address}" "${key}"`, "a OK");
      const sel = (await imap.ask("b SELECT INBOX", "b OK")).toString();
      const uid = /UIDNEXT (\d+)/.exec(sel)?.[1];
      return { imap, uid: Number(uid) - 1 };
    };
    const imapFetch = async (imap: Wire, uid: number, tag: string) => {
      const got = await imap.ask(`${tag} UID FETCH ${uid} BODY.PEEK[]`, `${tag} OK`);
      if (got.indexOf(expected) < 0) throw new Error("IMAP: not the stored bytes");
    };
    const popLogin = async () => {
      const pop = await Wire.open(system.ports.pop3);
      await pop.ask(null, "+OK");
      await pop.ask(`USER ${inbox.full_address}`, "+OK");
      await pop.ask(`PASS ${key}`, "+OK");
      return pop;
    };
    const popRetr = async (pop: Wire) => {
      const got = await pop.ask("RETR 1", "\r\n.\r\n");
      if (!got.toString("latin1").startsWith(`+OK ${expected.length} octets`)) throw new Error("POP3: not the stored message");
    };

    // 1. reads on kept sessions, the three kinds alternating
    const procs = ["api-gateway", "inbox", "inbox-mailbox", "identity"] as const;
    const { imap, uid } = await imapLogin();
    const pop = await popLogin();
    const samples = { api: [] as number[], imap: [] as number[], pop3: [] as number[] };
    const time = async (kind: keyof typeof samples, run: () => Promise<void>, keep: boolean) => {
      const t0 = performance.now();
      await run();
      if (keep) samples[kind].push(performance.now() - t0);
    };
    for (let i = 0; i < WARMUP; i++) {
      await time("api", viaApi, false);
      await time("imap", () => imapFetch(imap, uid, `w${i}`), false);
      await time("pop3", () => popRetr(pop), false);
    }
    const cpuOf = Object.fromEntries(procs.map((p) => [p, system.pid(p)]));
    // each kind's CPU is read over a block of its own (the alternation above is for the latencies)
    for (const kind of ["api", "imap", "pop3"] as const) {
      const meter = cpuPerUnit(cpuOf);
      for (let i = 0; i < READS; i++) {
        if (kind === "api") await time("api", viaApi, true);
        else if (kind === "imap") await time("imap", () => imapFetch(imap, uid, `r${i}`), true);
        else await time("pop3", () => popRetr(pop), true);
      }
      process.stdout.write(`${summary(`${kind}: one read on a kept session`, samples[kind])}\n  CPU ms per read: ${meter(READS)}\n`);
    }
    imap.close();
    pop.close();

    // 2. a session per read: connect, log in with the API key, read, log out
    const fresh = { imap: [] as number[], pop3: [] as number[] };
    for (const kind of ["imap", "pop3"] as const) {
      const meter = cpuPerUnit(cpuOf);
      for (let i = 0; i < SESSIONS; i++) {
        const t0 = performance.now();
        if (kind === "imap") {
          const c = await imapLogin();
          await imapFetch(c.imap, c.uid, "f");
          await c.imap.ask("z LOGOUT", "z OK");
          c.imap.close();
        } else {
          const p = await popLogin();
          await popRetr(p);
          await p.ask("QUIT", "+OK");
          p.close();
        }
        fresh[kind].push(performance.now() - t0);
      }
      process.stdout.write(
        `${summary(`${kind}: a session per read (connect, LOGIN, read, LOGOUT)`, fresh[kind])}\n  CPU ms per session: ${meter(SESSIONS)}\n`,
      );
    }
  } finally {
    await system.stop();
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exitCode = 1;
});
