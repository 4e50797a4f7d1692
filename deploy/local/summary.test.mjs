// The summary `npm start` prints (summary.mjs): the console's URL first, and while setup is
// incomplete the setup page's link with its token; the token is kept per checkout.
//
//   node deploy/local/summary.test.mjs      prints `N passed, N failed`
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setupToken, summaryLines } from "./summary.mjs";

let passed = 0;
let failed = 0;
function check(ok, what, output) {
  process.stdout.write(`[summary] ${ok ? "ok  " : "FAIL"} ${what}\n`);
  if (ok) passed++;
  else {
    failed++;
    process.stdout.write(`${output}\n`);
  }
}
const urls = (lines) => lines.flatMap((l) => l.match(/\b(?:https?|wss?):\/\/\S+/g) ?? []);

const base = { gatewayPort: "8080", smtpPort: "2525", trustedDomains: "burnbox.test", setupToken: "tok-en_1" };
const incomplete = summaryLines({ ...base, setupComplete: false });
check(
  urls(incomplete)[0] === "http://localhost:8080/",
  "when BurnBox is running, then the first address of the summary is the console's",
  incomplete.join("\n"),
);
check(
  urls(incomplete)[1] === "http://localhost:8080/setup?token=tok-en_1",
  "when setup is incomplete, then the setup page's link with the token comes right after it",
  incomplete.join("\n"),
);
check(
  urls(summaryLines({ ...base, setupComplete: undefined })).includes("http://localhost:8080/setup?token=tok-en_1"),
  "when the setup status cannot be read, then the link is printed all the same",
  "",
);
const done = summaryLines({ ...base, setupComplete: true });
check(
  urls(done)[0] === "http://localhost:8080/" && !done.some((l) => l.includes("token")),
  "when setup is complete, then the console comes first and no token is printed",
  done.join("\n"),
);
check(
  urls(summaryLines({ ...base, gatewayPort: "9090", setupComplete: false }))[1] === "http://localhost:9090/setup?token=tok-en_1",
  "when the gateway listens on another port, then both addresses name it",
  "",
);

const root = mkdtempSync(path.join(os.tmpdir(), "bb-summary-"));
try {
  const first = setupToken(root, {});
  check(/^[A-Za-z0-9_-]{32}$/.test(first), "when no token exists, then one is made (32 URL-safe characters)", first);
  check(
    setupToken(root, {}) === first && readFileSync(path.join(root, ".data", "setup-token"), "utf8").trim() === first,
    "when it exists, then the next start keeps it",
    "",
  );
  check(setupToken(root, { BB_SETUP_TOKEN: "mine" }) === "mine", "when BB_SETUP_TOKEN is set, then it is the token", "");
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
