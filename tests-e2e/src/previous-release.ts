import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");

/** The previous release, built: which commit, why that one, and the tree its services run from. */
export interface PreviousRelease {
  sha: string;
  /** How the commit was chosen (BB_UPGRADE_FROM, the newest release tag, or the branch's base). */
  chosen: string;
  /** `.test-results/previous-release/<sha>`: the commit's files, installed and built. */
  root: string;
}

const git = (...args: string[]): string => execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8" }).trim();
const commitOf = (ref: string): string | null => {
  try {
    return git("rev-parse", "--verify", "--quiet", `${ref}^{commit}`);
  } catch {
    return null;
  }
};

/**
 * The commit the upgrade test starts from: `BB_UPGRADE_FROM` (a tag or commit) when set; else the
 * newest release tag (`v*`) behind HEAD; else, while BurnBox has no release tag, the commit the
 * branch grew from (`git merge-base HEAD main`), or HEAD's parent on main itself: the code that
 * is deployed when this change rolls out. (Not "the commit before the newest schema change": on
 * main's history that can be a commit that never built, one half of a repaired merge.)
 */
export function previousReleaseCommit(): { sha: string; chosen: string } {
  const head = git("rev-parse", "HEAD");
  const wanted = process.env.BB_UPGRADE_FROM;
  if (wanted) {
    const sha = commitOf(wanted);
    if (!sha) throw new Error(`BB_UPGRADE_FROM=${wanted} names no commit of this repository`);
    return { sha, chosen: `BB_UPGRADE_FROM=${wanted}` };
  }
  for (const tag of git("tag", "--list", "v*", "--sort=-v:refname", "--merged", "HEAD").split("\n").filter(Boolean)) {
    const sha = commitOf(tag);
    if (sha && sha !== head) return { sha, chosen: `the newest release tag, ${tag}` };
  }
  const main = commitOf("main");
  const base = main ? git("merge-base", "HEAD", main) : null;
  if (base && base !== head) return { sha: base, chosen: "no release tag yet: the commit this branch grew from (merge-base with main)" };
  const parent = commitOf("HEAD^");
  if (!parent) throw new Error("no previous commit to upgrade from: set BB_UPGRADE_FROM");
  return { sha: parent, chosen: "no release tag yet, on main: HEAD's parent" };
}

/** Runs a command in `cwd`, its output appended to `log`; rejects with the log's name when it fails. */
function run(cmd: string, args: string[], cwd: string, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(log, { flags: "a" });
    out.write(`$ ${cmd} ${args.join(" ")}\n`);
    // asynchronous: the e2e runner's own system keeps being served (its logs read) meanwhile
    const child = spawn(cmd, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL ?? "postgresql://127.0.0.1/x" },
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    child.once("error", reject);
    child.once("exit", (code) => {
      out.end();
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(" ")} failed in ${cwd} (exit ${code}); see ${log}`));
    });
  });
}

/**
 * The previous release's tree, built as `npm test` builds this one: its files from git (`git
 * archive`, so nothing is registered in the repository), its dependencies from the pnpm store,
 * its Prisma clients, and deploy/local/build.mjs. Kept by commit: the next run reuses it.
 */
export async function buildPreviousRelease(): Promise<PreviousRelease> {
  const { sha, chosen } = previousReleaseCommit();
  const root = path.join(ROOT, ".test-results", "previous-release", sha);
  const done = path.join(root, ".built");
  if (existsSync(done)) return { sha, chosen, root };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const log = path.join(ROOT, ".test-results", "previous-release", `${sha}.log`);
  await run("sh", ["-c", `git -C "${ROOT}" archive ${sha} | tar -x -C "${root}"`], root, log);
  await run("pnpm", ["install", "--frozen-lockfile", "--prefer-offline"], root, log);
  await run(process.execPath, ["-e", 'import("./deploy/local/lib.mjs").then((m) => m.ensurePrismaClients())'], root, log);
  await run(process.execPath, ["deploy/local/build.mjs"], root, log);
  writeFileSync(done, `${sha}\n`);
  return { sha, chosen, root };
}
