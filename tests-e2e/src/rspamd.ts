import { tmpdir } from "node:os";
import path from "node:path";

/**
 * The e2e run's rspamd (extensions section 9), started by the one implementation `npm start` uses
 * (deploy/local/rspamd.cjs): Debian's package with deploy/local/rspamd/ as its LOCAL_CONFDIR. Its
 * database (the compiled rules) is kept per machine, outside the checkout, so a clean clone's run
 * does not compile them again. Stopped and started again by the test that takes it away mid-load,
 * from its own process, by the pid file.
 */
interface LocalRspamd {
  rspamdInstalled(): boolean;
  startRspamd(o: { port: number; dir: string; cacheDir?: string; timeoutMs?: number }): Promise<{ url: string }>;
  stopRspamd(dir: string, signal?: NodeJS.Signals, waitMs?: number): Promise<void>;
}
const ROOT = path.resolve(__dirname, "..", "..");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file shared with deploy/local's .mjs scripts
const local = require(path.join(ROOT, "deploy", "local", "rspamd.cjs")) as LocalRspamd;

export const RSPAMD_DIR = path.join(ROOT, ".test-results", "rspamd");
/** rspamd's DBDIR (its compiled rules and statistics), shared by the runs of this machine. */
const RSPAMD_CACHE = process.env.BB_RSPAMD_CACHE ?? path.join(tmpdir(), "burnbox-rspamd-cache");

export const rspamdInstalled = (): boolean => local.rspamdInstalled();

/** Starts the scanner on 127.0.0.1:`port` and resolves with its URL once `/ping` answers. */
export const startRspamd = async (port: number, dir = RSPAMD_DIR, timeoutMs = 240_000): Promise<string> =>
  (await local.startRspamd({ port, dir, cacheDir: RSPAMD_CACHE, timeoutMs })).url;

/** Ends the rspamd whose pid file is in `dir`; resolves once its main process is gone. */
export const stopRspamd = (dir = RSPAMD_DIR, signal: NodeJS.Signals = "SIGTERM"): Promise<void> => local.stopRspamd(dir, signal);
