import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { apiClient, sendMail } from "./clients";
import { SDK_DIR } from "./client-packages";
import { SharedSystem } from "./shared-system";
import { teamWithDomain } from "./world";

/** What a user of the published package runs, in a project that knows nothing of this repository. */
const SCRIPT = `
import { BurnBox } from "@burnbox/sdk";
const bb = new BurnBox({ baseUrl: process.env.BB_URL, token: process.env.BB_TOKEN });
const inbox = await bb.createInbox({ domain_assignment_id: process.env.BB_ASSIGNMENT });
const live = bb.stream(inbox.id);
await live.ready;
console.log("READY " + inbox.full_address);
for await (const frame of live) {
  if (frame.type !== "email.received") continue;
  const email = await bb.getEmail(frame.data.id);
  console.log("GOT " + email.subject + " | " + email.body_text.trim());
  break;
}
`;

/**
 * A command run without blocking the event loop: npm takes seconds, and a blocked loop would miss the
 * gateway closing this process's idle keep-alive sockets, so the next request would meet a closed one.
 */
function run(cmd: string, args: string[], cwd: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("exit", (status) => resolve({ status, stderr }));
  });
}

describe("@burnbox/sdk as a tarball", () => {
  const system = SharedSystem.attach();
  const api = apiClient(system.gatewayUrl);
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "burnbox-sdk-pack-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("when npm pack's tarball is installed in an empty project, then its client creates an inbox and streams a real mail", async () => {
    const packed = await run("npm", ["pack", "--pack-destination", dir], SDK_DIR);
    expect(packed.status).toBe(0);
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    const list = spawnSync("tar", ["-tzf", path.join(dir, tarball)], { encoding: "utf8" }).stdout.split("\n");
    expect(list).toEqual(expect.arrayContaining(["package/dist/index.js", "package/dist/index.d.ts", "package/README.md"]));
    expect(list.filter((f) => f.startsWith("package/src/"))).toEqual([]);

    const project = path.join(dir, "project");
    spawnSync("mkdir", [project]);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
    writeFileSync(path.join(project, "main.mjs"), SCRIPT);
    // ws: Node 20 has no global WebSocket, and the SDK picks up the ws package installed beside it
    const installed = await run("npm", ["install", "--no-audit", "--no-fund", path.join(dir, tarball), "ws@8"], project);
    if (installed.status !== 0) throw new Error(`npm install: ${installed.stderr}`);

    const world = await teamWithDomain(api);
    const child = spawn(process.execPath, ["main.mjs"], {
      cwd: project,
      env: { PATH: process.env.PATH, BB_URL: system.gatewayUrl, BB_TOKEN: world.owner.token, BB_ASSIGNMENT: world.assignmentId },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    try {
      const ready = (await lines.next()).value as string | undefined;
      expect(ready).toMatch(/^READY .+@/);
      const subject = `packed ${randomBytes(3).toString("hex")}`;
      const sent = await sendMail(system.ports.smtp, {
        from: "a@acme.example",
        to: ready!.slice(6),
        subject,
        text: "from the tarball test",
      });
      expect(sent.data?.code).toBe(250);
      expect((await lines.next()).value).toBe(`GOT ${subject} | from the tarball test`);
      expect(await exited).toBe(0);
    } finally {
      child.kill();
      if (stderr) process.stderr.write(stderr);
    }
  });
});
