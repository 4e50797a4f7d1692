import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import {
  BurnBox,
  BurnBoxError,
  NothingExtractedError,
  WaitTimeoutError,
  type EmailSummary,
  type LinkKind,
  type WaitOptions,
  type WebSocketConstructor,
} from "@burnbox/sdk";
import { configPath, DEFAULT_BASE_URL, jwtExpiry, loginFor, originOf, readConfig, withLogin, writeConfig } from "./config.js";
import { addSetupCommands } from "./setup.js";
import { safeField, terminal, type Terminal } from "./terminal.js";
import { UsageError } from "./usage-error.js";

/** Exit codes a shell script can rely on. */
export const EXIT = { found: 0, error: 1, timedOut: 2, usage: 64 } as const;

const LINK_KINDS: readonly LinkKind[] = ["verify", "reset", "magic_link", "unsubscribe", "other"];

/** Where the program reads and writes: the process's streams and environment in cli.ts, stand-ins in tests. */
export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  stdin: () => Promise<string>;
}

const positiveInt = (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError("a positive whole number");
  return Number(v);
};
const collect = (v: string, prev: string[] = []) => [...prev, v];

async function webSocketClass(): Promise<WebSocketConstructor> {
  const g = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (g) return g;
  const mod = await import("ws");
  return mod.WebSocket;
}

/** Runs the command line `argv` (without node and the script) and gives the exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  const program = new Command("burnbox");
  const file = () => configPath(io.env);
  // every line printed goes through the terminal: text made safe, JSON escaped
  const term: Terminal = terminal(io);
  const json = (v: unknown) => term.json(v);

  /**
   * The client: base URL from --url, BURNBOX_URL, the config file; credential from BURNBOX_API_KEY,
   * else the login the config file keeps for that URL's origin (never one made at another).
   */
  async function client(opts: { needAuth?: boolean } = {}): Promise<BurnBox> {
    const g = program.opts<{ url?: string }>();
    const config = readConfig(file());
    const baseUrl = g.url ?? io.env.BURNBOX_URL ?? config.base_url ?? DEFAULT_BASE_URL;
    const origin = originOf(baseUrl);
    const login = loginFor(config, origin);
    const apiKey = io.env.BURNBOX_API_KEY ?? login?.api_key;
    const bb = new BurnBox({ baseUrl, WebSocket: await webSocketClass(), ...(apiKey ? { apiKey } : {}) });
    if (!apiKey && login?.access_token) {
      const exp = jwtExpiry(login.access_token);
      if (exp !== undefined && exp * 1000 < Date.now() + 30_000 && login.refresh_token) {
        const r = await bb.api.POST("/auth/refresh", { body: { refresh_token: login.refresh_token } });
        if (r.data) {
          const tokens = { access_token: r.data.access_token, refresh_token: r.data.refresh_token };
          writeConfig(file(), withLogin(readConfig(file()), origin, tokens));
          bb.setToken(r.data.access_token);
          return bb;
        }
      }
      bb.setToken(login.access_token);
    } else if (!apiKey && opts.needAuth !== false) {
      const elsewhere = Object.keys(config.logins ?? {}).filter((o) => loginFor(config, o));
      throw new Error(
        `not logged in to ${origin}: run \`burnbox login --url ${origin}\`, or set BURNBOX_API_KEY` +
          (elsewhere.length > 0 ? ` (the stored logins are for ${elsewhere.join(", ")} only)` : ""),
      );
    }
    return bb;
  }

  program
    .description("BurnBox from the command line: disposable inboxes, waiting for mail, codes and links.")
    .option("--url <baseUrl>", `where BurnBox answers (env BURNBOX_URL, else the last login's URL, else ${DEFAULT_BASE_URL})`)
    .addHelpText(
      "after",
      [
        "",
        "Credentials: BURNBOX_API_KEY (a team key, bb_...), else what `burnbox login` stored in the config",
        "file (BURNBOX_CONFIG, default ~/.config/burnbox/config.json) for that URL's origin; a login is sent",
        "to the origin it was made at only (log in once per BurnBox).",
        "Text from the server is printed without terminal control sequences; --json prints it exactly.",
        "Exit codes: 0 done or found, 1 error, 2 a wait timed out, 64 usage error.",
        "",
        "A first inbox on a new BurnBox:",
        "  burnbox register --email me@example.com --password-stdin",
        "  burnbox init --org Acme --team QA --domain qa.burnbox.test",
        "  burnbox inbox create --alias signup",
      ].join("\n"),
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => term.out(s.trimEnd()), writeErr: (s) => term.err(s.trimEnd()) })
    .showHelpAfterError("(add --help for usage)");

  const readPassword = async (fromStdin: boolean | undefined) => {
    const password = fromStdin ? (await io.stdin()).replace(/\r?\n$/, "") : io.env.BURNBOX_PASSWORD;
    if (!password) throw new UsageError("no password: pass --password-stdin or set BURNBOX_PASSWORD");
    return password;
  };
  /** Keeps the tokens under the URL's origin in the config file (mode 600), beside the other logins; the URL becomes the default. */
  const saveLogin = (bb: BurnBox, tokens: { access_token: string; refresh_token: string }) => {
    const baseUrl = bb.baseUrl.replace(/\/api\/v1$/, "");
    const login = { access_token: tokens.access_token, refresh_token: tokens.refresh_token };
    writeConfig(file(), { ...withLogin(readConfig(file()), originOf(baseUrl), login), base_url: baseUrl });
  };

  program
    .command("login")
    .description("log in with email and password; stores the tokens and the URL in the config file")
    .requiredOption("--email <email>", "the account's email address")
    .option("--password-stdin", "read the password from standard input (else BURNBOX_PASSWORD)")
    .action(async (o: { email: string; passwordStdin?: boolean }) => {
      const password = await readPassword(o.passwordStdin);
      const bb = await client({ needAuth: false });
      const result = await bb.login(o.email, password);
      saveLogin(bb, result.tokens);
      term.out(`logged in as ${o.email} at ${originOf(bb.baseUrl)} (${file()})`);
    });

  program
    .command("register")
    .description("create an account (the first step on a new BurnBox) and log in as it, as login does")
    .requiredOption("--email <email>", "the account's email address")
    .option("--name <displayName>", "your display name (default: the email's local part)")
    .option("--password-stdin", "read the password from standard input (else BURNBOX_PASSWORD)")
    .action(async (o: { email: string; name?: string; passwordStdin?: boolean }) => {
      const password = await readPassword(o.passwordStdin);
      const bb = await client({ needAuth: false });
      const result = await bb.register({ email: o.email, password, display_name: o.name ?? o.email.split("@")[0] ?? o.email });
      saveLogin(bb, result.tokens);
      term.out(`registered and logged in as ${o.email} at ${originOf(bb.baseUrl)} (${file()})`);
    });

  addSetupCommands(program, { client, term, file });

  const inbox = program.command("inbox").description("manage inboxes");
  inbox
    .command("create")
    .description("create an inbox; prints its id and address")
    .option("--domain-assignment <id>", "the team's domain assignment to create it on (default: the one `burnbox init` stored)")
    .option("--alias <alias>", "the local part (random when absent)")
    .option("--ttl <duration>", "how long it lives, e.g. 1h, 7d")
    .option("--private", "a private inbox")
    .option("--json", "print the inbox as JSON")
    .action(async (o: { domainAssignment?: string; alias?: string; ttl?: string; private?: boolean; json?: boolean }) => {
      const assignment = o.domainAssignment ?? readConfig(file()).domain_assignment_id;
      if (!assignment) throw new UsageError("no domain assignment: pass --domain-assignment <id>, or run `burnbox init` once");
      const bb = await client();
      const created = await bb.createInbox({
        domain_assignment_id: assignment,
        ...(o.alias ? { alias: o.alias } : {}),
        ...(o.ttl ? { ttl: o.ttl } : {}),
        ...(o.private ? { private: true } : {}),
      });
      if (o.json) json(created);
      else term.row(created.id, created.full_address, created.expires_at);
    });

  program
    .command("ls")
    .description("list your inboxes, or with an inbox id the emails of that inbox (newest first)")
    .argument("[inboxId]", "the inbox whose emails to list")
    .option("--page <n>", "page number", positiveInt)
    .option("--per-page <n>", "items per page", positiveInt)
    .option("--json", "print the page as JSON")
    .action(async (inboxId: string | undefined, o: { page?: number; perPage?: number; json?: boolean }) => {
      const bb = await client();
      const query = { ...(o.page ? { page: o.page } : {}), ...(o.perPage ? { per_page: o.perPage } : {}) };
      if (inboxId) {
        const page = await bb.listEmails(inboxId, query);
        if (o.json) return json(page);
        for (const e of page.data) emailRow(term, e);
      } else {
        const page = await bb.listInboxes(query);
        if (o.json) return json(page);
        for (const i of page.data)
          term.row(i.id, i.full_address, `${i.email_count} emails`, `${i.unread_count} unread`, `expires ${i.expires_at}`);
      }
    });

  program
    .command("read")
    .description("print one email: its headers and text")
    .argument("<emailId>", "the email")
    .option("--json", "print the email as JSON")
    .action(async (emailId: string, o: { json?: boolean }) => {
      const bb = await client();
      const email = await bb.getEmail(emailId);
      if (o.json) return json(email);
      const header = (name: string, value: string) => term.out(`${name}: ${safeField(value)}`);
      header("From", email.from_address);
      header("To", email.to_address);
      header("Subject", email.subject);
      header("Date", email.received_at);
      if (email.attachments.length > 0) header("Attachments", email.attachments.map((a) => safeField(a.filename)).join(", "));
      term.out("");
      term.out(email.body_text ?? (email.body_html ? "(HTML only: use --json for body_html)" : ""));
    });

  program
    .command("wait")
    .description("wait for mail in an inbox that matches; exit 0 when it came, 2 when the timeout passed")
    .argument("<inboxId>", "the inbox")
    .option("--from <text>", "From address or name contains")
    .option("--to <text>", "a To or Cc address or name contains")
    .option("--subject <text>", "the subject contains")
    .option("--body <text>", "the body contains")
    .option("--subject-re <re2>", "the subject matches this RE2 pattern")
    .option("--body-re <re2>", "the body matches this RE2 pattern")
    .option("--header <line>", "'Name: value', exact; repeatable, all must hold", collect)
    .option("--since <timeOrEmailId>", "only mail received after this ISO time or email")
    .option("--unread", "only unread mail")
    .option("--count <n>", "how many emails to wait for (1 to 100)", positiveInt)
    .option("--timeout <duration>", "at most this long: 0, 500ms, 10s, 2m (up to 120s)", "30s")
    .addOption(new Option("--code", "print the first one-time code of the mail").conflicts("link"))
    .addOption(new Option("--link [kind]", `print a link of the mail (kind: ${LINK_KINDS.join(", ")}; default any but unsubscribe)`))
    .option("--json", "print the wait's answer as JSON")
    .action(async (inboxId: string, o: WaitFlags) => {
      if (typeof o.link === "string" && !LINK_KINDS.includes(o.link as LinkKind)) {
        throw new UsageError(`--link kind must be one of ${LINK_KINDS.join(", ")}`);
      }
      const bb = await client();
      const options: WaitOptions = {
        ...(o.from ? { from: o.from } : {}),
        ...(o.to ? { to: o.to } : {}),
        ...(o.subject ? { subject: o.subject } : {}),
        ...(o.body ? { body: o.body } : {}),
        ...(o.subjectRe ? { subjectRe: o.subjectRe } : {}),
        ...(o.bodyRe ? { bodyRe: o.bodyRe } : {}),
        ...(o.header ? { headers: o.header } : {}),
        ...(o.since ? { since: o.since } : {}),
        ...(o.unread ? { unread: true } : {}),
        ...(o.count ? { count: o.count } : {}),
        timeout: o.timeout,
      };
      if (o.code) return term.row(await bb.waitForCode(inboxId, options));
      if (o.link !== undefined) {
        return term.row(await bb.waitForLink(inboxId, { ...options, ...(typeof o.link === "string" ? { kind: o.link as LinkKind } : {}) }));
      }
      const result = await bb.waitForEmail(inboxId, options);
      if (o.json) return json(result);
      for (const e of result.data) emailRow(term, e);
    });

  program
    .command("tail")
    .description("follow an inbox live: one line per email received until interrupted or the inbox is deleted")
    .argument("<inboxId>", "the inbox")
    .option("--json", "print each frame as one line of JSON")
    .action(async (inboxId: string, o: { json?: boolean }) => {
      const bb = await client();
      const live = bb.stream(inboxId);
      const stop = () => live.close();
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      try {
        await live.ready;
        term.err(`following ${inboxId} (Ctrl-C to stop)`);
        for await (const frame of live) {
          if (o.json) term.json(frame, true);
          else if (frame.type === "email.received") emailRow(term, frame.data as unknown as EmailSummary);
          else term.row(frame.type);
        }
      } finally {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
      }
    });

  try {
    await program.parseAsync(argv, { from: "user" });
    return EXIT.found;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") return EXIT.found;
      return EXIT.usage;
    }
    if (err instanceof UsageError) {
      term.err(`burnbox: ${err.message}`);
      return EXIT.usage;
    }
    if (err instanceof WaitTimeoutError) {
      term.err(`burnbox: timed out (${err.result.matched} matched)`);
      if (program.commands.find((c) => c.name() === "wait")?.opts<{ json?: boolean }>().json) json(err.result);
      return EXIT.timedOut;
    }
    if (err instanceof BurnBoxError) {
      term.err(`burnbox: ${err.status} ${err.code}: ${err.message}`);
      return EXIT.error;
    }
    if (err instanceof NothingExtractedError) {
      term.err(`burnbox: ${err.message}`);
      return EXIT.error;
    }
    term.err(`burnbox: ${(err as Error).message ?? String(err)}`);
    return EXIT.error;
  }
}

interface WaitFlags {
  from?: string;
  to?: string;
  subject?: string;
  body?: string;
  subjectRe?: string;
  bodyRe?: string;
  header?: string[];
  since?: string;
  unread?: boolean;
  count?: number;
  timeout: string;
  code?: boolean;
  link?: string | boolean;
  json?: boolean;
}

function emailRow(term: Terminal, e: Pick<EmailSummary, "id" | "received_at" | "from_address" | "subject">): void {
  term.row(e.id, e.received_at, e.from_address, e.subject);
}
