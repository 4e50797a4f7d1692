import { Command, CommanderError } from "commander";
import { BurnBoxError, NothingExtractedError, WaitTimeoutError } from "@burnbox/sdk";
import { DEFAULT_BASE_URL } from "./config.js";
import { commandContext, type CommandContext, type Io } from "./context.js";
import { addInboxCommand } from "./commands/inbox.js";
import { addLoginCommand } from "./commands/login.js";
import { addLsCommand } from "./commands/ls.js";
import { addReadCommand } from "./commands/read.js";
import { addRegisterCommand } from "./commands/register.js";
import { addReleaseCommand } from "./commands/release.js";
import { addReplyCommand } from "./commands/reply.js";
import { addSendCommand } from "./commands/send.js";
import { addSnapshotCommand, SnapshotDiffers } from "./commands/snapshot.js";
import { addTailCommand } from "./commands/tail.js";
import { addWaitCommand } from "./commands/wait.js";
import { addSetupCommands } from "./setup.js";
import { terminal, type Terminal } from "./terminal.js";
import { UsageError } from "./usage-error.js";

export type { Io } from "./context.js";

/** Exit codes a shell script can rely on. */
export const EXIT = { found: 0, error: 1, timedOut: 2, differs: 3, usage: 64 } as const;

/** Every command, in the order `--help` lists them: each module adds its own. */
const COMMANDS: ReadonlyArray<(program: Command, ctx: CommandContext) => void> = [
  addLoginCommand,
  addRegisterCommand,
  addSetupCommands,
  addInboxCommand,
  addLsCommand,
  addReadCommand,
  addWaitCommand,
  addTailCommand,
  addSendCommand,
  addReplyCommand,
  addReleaseCommand,
  addSnapshotCommand,
];

function describeProgram(program: Command, term: Terminal): void {
  program
    .description("BurnBox from the command line: disposable inboxes, waiting for mail, codes and links, mail snapshots.")
    .option("--url <baseUrl>", `where BurnBox answers (env BURNBOX_URL, else the last login's URL, else ${DEFAULT_BASE_URL})`)
    .addHelpText(
      "after",
      [
        "",
        "Credentials: BURNBOX_API_KEY (a team key, bb_...), else what `burnbox login` stored in the config",
        "file (BURNBOX_CONFIG, default ~/.config/burnbox/config.json) for that URL's origin; a login is sent",
        "to the origin it was made at only (log in once per BurnBox).",
        "Text from the server is printed without terminal control sequences; --json prints it exactly.",
        "Exit codes: 0 done or found, 1 error, 2 a wait timed out, 3 an email differs from its snapshot, 64 usage error.",
        "",
        "A first inbox on a new BurnBox:",
        "  burnbox register --email me@example.com --password-stdin",
        "  burnbox init --org Acme --team QA --domain qa.burnbox.test",
        "  burnbox inbox create --alias signup",
        "",
        "A sign-up mail kept as a baseline, and the next one compared with it:",
        "  burnbox snapshot save <emailId> signup-welcome --mask '\\b(Alice|Bob)\\b=>[name]'",
        "  burnbox snapshot compare <nextEmailId> signup-welcome   # exit 3 and the diff when it differs",
      ].join("\n"),
    )
    .exitOverride()
    .configureOutput({ writeOut: (s) => term.out(s.trimEnd()), writeErr: (s) => term.err(s.trimEnd()) })
    .showHelpAfterError("(add --help for usage)");
}

/** What a command's failure prints, and the exit code it ends with. */
function exitCodeOf(err: unknown, program: Command, term: Terminal): number {
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
    if (program.commands.find((c) => c.name() === "wait")?.opts<{ json?: boolean }>().json) term.json(err.result);
    return EXIT.timedOut;
  }
  if (err instanceof BurnBoxError) {
    term.err(`burnbox: ${err.status} ${err.code}: ${err.message}`);
    return EXIT.error;
  }
  if (err instanceof SnapshotDiffers) {
    term.err(`burnbox: ${err.message}`);
    return EXIT.differs;
  }
  if (err instanceof NothingExtractedError) {
    term.err(`burnbox: ${err.message}`);
    return EXIT.error;
  }
  term.err(`burnbox: ${(err as Error).message ?? String(err)}`);
  return EXIT.error;
}

/** Runs the command line `argv` (without node and the script) and gives the exit code. */
export async function run(argv: string[], io: Io): Promise<number> {
  const program = new Command("burnbox");
  // every line printed goes through the terminal: text made safe, JSON escaped
  const term = terminal(io);
  describeProgram(program, term);
  const ctx = commandContext(program, io, term);
  for (const add of COMMANDS) add(program, ctx);
  try {
    await program.parseAsync(argv, { from: "user" });
    return EXIT.found;
  } catch (err) {
    return exitCodeOf(err, program, term);
  }
}
