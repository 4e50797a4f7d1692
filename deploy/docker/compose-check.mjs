// What `docker compose config` checks, offline, for docker-compose.yml: it parses (anchors and
// merges resolved), interpolates with only the five secrets set, and is complete: every service has
// an image, every built image names a target of deploy/docker/Dockerfile, every dependency and
// named volume exists, every BurnBox service has its health check (the image's) and the stack has
// Postgres with a password, Redis and NATS that ask every client for credentials (and services that
// give them), NATS with JetStream and a health check, and the SMTP intake.
// And the README's first mail works under it as under `npm start`: its API address, its SMTP
// port and its domain (trusted without DNS) are what `docker compose up` gives with no settings.
// `docker compose config` itself runs too when the compose plugin is installed, else Compose v1
// (`docker-compose config`, Debian's package) when that is.
//
//   node deploy/docker/compose-check.mjs     prints `N passed, N failed`
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const { parse } = createRequire(path.join(ROOT, "packages", "service-kit", "package.json"))("yaml");
const SECRETS = {
  BB_INTERNAL_SECRET: "i".repeat(32),
  BB_AUTH_JWT_SECRET: "j".repeat(32),
  BB_ENCRYPTION_KEY: "e".repeat(64),
  BB_NATS_PASSWORD: "n".repeat(32),
  BB_REDIS_PASSWORD: "r".repeat(32),
};

let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else failed++;
  if (!ok) process.stdout.write(`[compose] FAIL ${what}\n`);
};

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, $$. */
export function interpolate(text, env) {
  const missing = [];
  const out = text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])((?:[^}])*))?\}/g, (whole, name, op, arg) => {
    if (whole === "$$") return "$$";
    const value = env[name];
    const unset = value === undefined || (op?.startsWith(":") && value === "");
    if (!op) return value ?? "";
    if (op.endsWith("-")) return unset ? arg : value;
    if (unset) missing.push(`${name}: ${arg}`);
    return value ?? "";
  });
  return { out, missing };
}

const file = path.join(ROOT, "docker-compose.yml");
const withSecrets = interpolate(readFileSync(file, "utf8"), SECRETS);
check(withSecrets.missing.length === 0, `interpolates with only the five secrets set (missing: ${withSecrets.missing.join(", ")})`);
const withNothing = interpolate(readFileSync(file, "utf8"), {});
const missingNames = [...new Set(withNothing.missing.map((m) => m.split(":")[0]))].sort();
check(
  JSON.stringify(missingNames) === JSON.stringify(Object.keys(SECRETS).sort()),
  `without them, it names exactly the five secrets (named: ${missingNames.join(", ")})`,
);

let doc;
try {
  doc = parse(withSecrets.out, { merge: true, maxAliasCount: -1 });
  check(true, "parses");
} catch (err) {
  check(false, `parses: ${err.message}`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  process.exit(1);
}
const services = doc.services ?? {};
const targets = new Set(
  [...readFileSync(path.join(ROOT, "deploy", "docker", "Dockerfile"), "utf8").matchAll(/^FROM \S+ AS (\S+)/gim)].map((m) => m[1]),
);
const volumes = new Set(Object.keys(doc.volumes ?? {}));
const BURNBOX = ["identity", "tenancy", "inbox", "inbox-smtp", "inbox-mailbox", "webhook-dispatcher", "realtime-gateway", "api-gateway"];

for (const [name, s] of Object.entries(services)) {
  check(typeof s.image === "string" && !/:latest$/.test(s.image), `${name}: an image with a fixed tag`);
  if (s.build)
    check(s.build.dockerfile === "deploy/docker/Dockerfile" && targets.has(s.build.target), `${name}: builds a target of the Dockerfile`);
  for (const dep of Object.keys(s.depends_on ?? {})) check(dep in services, `${name}: depends on ${dep}, which exists`);
  for (const v of s.volumes ?? []) {
    const source = String(v).split(":")[0];
    if (!source.startsWith(".") && !source.startsWith("/")) check(volumes.has(source), `${name}: volume ${source} is declared`);
  }
}
for (const name of BURNBOX) {
  const s = services[name];
  check(Boolean(s), `${name}: is a service`);
  if (!s) continue;
  const env = s.environment ?? {};
  check(/^\d+$/.test(String(env.BB_HTTP_PORT ?? "")), `${name}: sets BB_HTTP_PORT (the image's HEALTHCHECK reads it)`);
  check(s.read_only === true && (s.cap_drop ?? []).includes("ALL"), `${name}: read-only root and no capabilities`);
  for (const dep of ["postgres", "redis", "nats"])
    check(s.depends_on?.[dep]?.condition === "service_healthy", `${name}: waits for ${dep} to be healthy`);
}
check(Boolean(services.postgres?.environment?.POSTGRES_PASSWORD), "Postgres has a password");
const redisArgs = [services.redis?.command ?? []].flat().map(String);
check(redisArgs[redisArgs.indexOf("--requirepass") + 1] === SECRETS.BB_REDIS_PASSWORD, "Redis asks every client for the password");
const natsArgs = (services.nats?.command ?? []).map(String);
check(
  natsArgs[natsArgs.indexOf("--user") + 1] === "burnbox" && natsArgs[natsArgs.indexOf("--pass") + 1] === SECRETS.BB_NATS_PASSWORD,
  "NATS asks every client for a user and password",
);
for (const name of BURNBOX) {
  const env = services[name]?.environment ?? {};
  check(
    env.BB_NATS_USER === "burnbox" &&
      env.BB_NATS_PASSWORD === SECRETS.BB_NATS_PASSWORD &&
      String(env.REDIS_URL).startsWith(`redis://:${SECRETS.BB_REDIS_PASSWORD}@redis:`),
    `${name}: connects to NATS and Redis with their credentials`,
  );
}
check(Boolean(services.postgres?.healthcheck && services.redis?.healthcheck), "Postgres and Redis have health checks");
check(
  Boolean(services.nats?.healthcheck) && (services.nats?.command ?? []).some((a) => /^(-js|--jetstream)$/.test(a)),
  "NATS runs JetStream and has a health check",
);
check(
  (services["inbox-smtp"]?.ports ?? []).some((p) => String(p).endsWith(":2525")),
  "the SMTP intake is published",
);
check(
  ["1143", "1110"].every((port) => (services["inbox-mailbox"]?.ports ?? []).some((p) => String(p).endsWith(`:${port}`))),
  "IMAP and POP3 for mail clients are published",
);
check(
  (services["inbox-mailbox"]?.volumes ?? []).some((v) => String(v) === "storage:/data/storage"),
  "the mailbox reads the mail store the intake writes",
);
check((services.s3?.profiles ?? []).includes("s3"), "the S3-compatible store is an optional profile");
const dbUrl = String(services.identity?.environment?.DATABASE_URL ?? "");
check(
  /^postgresql:\/\/[^:]+:[^@]+@postgres:5432\//.test(dbUrl),
  "services reach Postgres with a password (each uses its own database on it)",
);

// ---- The README's first-mail walkthrough, with only the five secrets set, as under `npm start`
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
const start = readFileSync(path.join(ROOT, "deploy", "local", "start.mjs"), "utf8");
const walkDomain = /"domain_name":"([^"]+)"/.exec(readme)?.[1];
const walkApi = /^API=http:\/\/localhost:(\d+)\/api\/v1$/m.exec(readme)?.[1];
const walkSmtp = /on localhost:(\d+), then:/.exec(readme)?.[1];
check(Boolean(walkDomain && walkApi && walkSmtp), "README: the first-mail walkthrough names its domain, API port and SMTP port");
const startSmtp = /env\.BB_SMTP_PORT \?\? "(\d+)"/.exec(start)?.[1];
const startTrusted = /env\.BB_DOMAINS_TRUSTED \?\? "([^"]*)"/.exec(start)?.[1];
check(walkSmtp === startSmtp, `README's SMTP port (${walkSmtp}) is npm start's (${startSmtp})`);
const trusted = String(services.tenancy?.environment?.BB_DOMAINS_TRUSTED ?? "")
  .split(",")
  .map((d) => d.trim().toLowerCase())
  .filter(Boolean);
const covers = (list, domain) => list.some((t) => domain === t || domain?.endsWith(`.${t}`));
check(
  covers(trusted, walkDomain) && covers((startTrusted ?? "").split(","), walkDomain),
  `the walkthrough's domain ${walkDomain} is trusted by default under compose (${trusted.join(",") || "none"}) as under npm start (${startTrusted})`,
);
const published = (name, inner) =>
  (services[name]?.ports ?? [])
    .map(String)
    .find((p) => p.endsWith(`:${inner}`))
    ?.split(":")
    .slice(-2, -1)[0];
check(
  published("inbox-smtp", 2525) === walkSmtp,
  `the SMTP intake is published on the walkthrough's port ${walkSmtp} by default (${published("inbox-smtp", 2525)})`,
);
check(published("api-gateway", 8080) === walkApi, `the API is published on the walkthrough's port ${walkApi}`);
check(
  /^http:\/\/localhost:(\d+)$/.exec(services.identity?.environment?.BB_BASE_URL ?? "")?.[1] === walkApi,
  "identity's BB_BASE_URL is the published API address by default (links in mail open there)",
);
check(
  Boolean(services.tenancy?.environment?.BB_SMTP_HOSTNAME) &&
    services.tenancy?.environment?.BB_SMTP_HOSTNAME === services["inbox-smtp"]?.environment?.BB_SMTP_HOSTNAME,
  "tenancy's MX target and the intake's host name are one setting (BB_SMTP_HOSTNAME)",
);

const docker = spawnSync("docker", ["compose", "version"], { encoding: "utf8" });
if (docker.status === 0) {
  const r = spawnSync("docker", ["compose", "-f", file, "config", "--quiet"], { encoding: "utf8", env: { ...process.env, ...SECRETS } });
  check(r.status === 0, `docker compose config accepts it: ${r.stderr}`);
} else if (spawnSync("docker-compose", ["version"], { encoding: "utf8" }).status === 0) {
  // Compose v1 (Debian's docker-compose 1.29) validates the same schema and interpolation, but
  // predates the top-level `name:`; it checks a copy without that one line.
  const copy = path.join(mkdtempSync(path.join(tmpdir(), "bb-compose-")), "docker-compose.yml");
  writeFileSync(copy, readFileSync(file, "utf8").replace(/^name:.*\n/m, ""));
  const run = (env) =>
    spawnSync("docker-compose", ["-f", copy, "--project-directory", ROOT, "config", "--quiet"], { encoding: "utf8", env });
  const withSecrets = run({ ...process.env, ...SECRETS });
  check(withSecrets.status === 0, `docker-compose (v1) config accepts it with only the five secrets set: ${withSecrets.stderr}`);
  const { BB_INTERNAL_SECRET: _i, BB_AUTH_JWT_SECRET: _j, ...withoutSecrets } = process.env;
  const refused = run(withoutSecrets);
  check(
    refused.status !== 0 && /BB_INTERNAL_SECRET|BB_AUTH_JWT_SECRET/.test(refused.stderr),
    "docker-compose (v1) config refuses it without the secrets",
  );
  rmSync(path.dirname(copy), { recursive: true, force: true });
} else process.stdout.write("[compose] neither docker compose nor docker-compose is installed here: checked without them\n");

process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
