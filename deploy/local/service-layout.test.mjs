// The claims of docs/service-layout.md that the code can be asked about: the use case shape, the
// hot sets, the consumers' one signature and the stop lists, the kit's subpaths, the SMTP
// entrypoint and the gateways' exceptions. A claim the code stops keeping fails here, so the
// guide is changed with the code.
//
//   node deploy/local/service-layout.test.mjs      prints `N passed, N failed`
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { ROOT } from "./lib.mjs";

const ts = createRequire(import.meta.url)("typescript");
const DOC = readFileSync(path.join(ROOT, "docs", "service-layout.md"), "utf8");
const SERVICES = readdirSync(path.join(ROOT, "services")).filter((s) => existsSync(path.join(ROOT, "services", s, "src", "app.ts")));

let passed = 0;
let failed = 0;
function check(problems, what) {
  const ok = problems.length === 0;
  process.stdout.write(`[service-layout] ${ok ? "ok  " : "FAIL"} ${what}\n`);
  if (ok) passed++;
  else {
    failed++;
    for (const p of problems) process.stdout.write(`    ${p}\n`);
  }
}

function walk(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "generated" ? [] : walk(full, suffix);
    return e.name.endsWith(suffix) ? [full] : [];
  });
}
const rel = (f) => path.relative(ROOT, f);
const parse = (file) => ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
const isExported = (node) => (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export) !== 0;
const camel = (kebab) => kebab.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

/** The exported functions of a file: declarations and `export const f = (...) =>`. */
function exportedFunctions(sf) {
  const out = [];
  for (const st of sf.statements) {
    if (!isExported(st)) continue;
    if (ts.isFunctionDeclaration(st) && st.name) out.push({ name: st.name.text, fn: st });
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations)
        if (d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)))
          out.push({ name: d.name.getText(sf), fn: d.initializer });
  }
  return out;
}
const paramTypes = (sf, fn) => fn.parameters.map((p) => (p.type ? p.type.getText(sf) : "?"));

// ---- use cases: "one exported use case per file", `(deps, ctx, input)` behind a route, `(deps, input)` otherwise
{
  // files that export a second use case or a helper beside their use case (the guide lists them)
  const WITH_HELPERS = new Set([
    "services/identity/src/domain/setup/setup-admin.use-case.ts",
    "services/identity/src/domain/sso-admin/get-sso-provider.use-case.ts",
    "services/identity/src/domain/tenants/remove-tenant-api-keys.use-case.ts",
    "services/inbox/src/domain/emails/receive-email.use-case.ts",
    "services/realtime-gateway/src/domain/inbox-streams/push-received-email.use-case.ts",
    "services/tenancy/src/domain/impact/count-team-resource.use-case.ts",
    "services/tenancy/src/domain/provisioning/provision-membership.use-case.ts",
    "services/tenancy/src/domain/setup/test-setup-connection.use-case.ts",
    "services/tenancy/src/domain/domain-assignments/list-my-domains.use-case.ts",
    "services/tenancy/src/domain/domains/delete-domain.use-case.ts",
    "services/tenancy/src/domain/inbox-counts/count-inbox.use-case.ts",
    "services/tenancy/src/domain/invites/redeem-registration-invite.use-case.ts",
  ]);
  // the two whose use cases are named otherwise (the guide says so): what they export instead
  const NAMED_OTHERWISE = {
    "services/identity/src/domain/setup/setup-admin.use-case.ts": ["getSetupState", "createSetupAdmin", "abortSetupAdmin"],
    "services/tenancy/src/domain/setup/test-setup-connection.use-case.ts": ["testSetupSmtp", "testSetupStorage"],
  };
  const files = SERVICES.flatMap((s) => walk(path.join(ROOT, "services", s, "src", "domain"), ".use-case.ts"));
  const shape = [];
  const extra = [];
  for (const file of files) {
    const sf = parse(file);
    const name = camel(path.basename(file, ".use-case.ts"));
    const fns = exportedFunctions(sf);
    const names = NAMED_OTHERWISE[rel(file)] ?? [name];
    for (const n of names) {
      const useCase = fns.find((f) => f.name === n);
      if (!useCase) {
        shape.push(`${rel(file)}: exports no function ${n}`);
        continue;
      }
      const types = paramTypes(sf, useCase.fn);
      if (!/Deps$/.test(types[0] ?? ""))
        shape.push(`${rel(file)}: ${n}'s first parameter is ${types[0] ?? "missing"}, not the service's deps`);
      const ctxAt = types.indexOf("RequestCtx");
      if (ctxAt !== -1 && !types.slice(0, ctxAt).every((t) => /Deps$/.test(t)))
        shape.push(`${rel(file)}: ${n} takes the RequestCtx at position ${ctxAt + 1}, not right after its deps`);
    }
    const helpers = fns.length > 1;
    if (helpers !== WITH_HELPERS.has(rel(file)))
      extra.push(`${rel(file)}: ${helpers ? "exports more than its use case" : "listed as exporting a helper, exports only its use case"}`);
  }
  check(
    files.length > 0 ? shape : ["no use case found"],
    `every *.use-case.ts (${files.length}) exports its use case under the file's name, the deps first and a RequestCtx right after them when it takes one`,
  );
  check(extra, `a use case file exports only its use case, but for the ${WITH_HELPERS.size} with a helper the guide lists`);
  const listed = [...WITH_HELPERS].filter((f) => !DOC.includes(path.basename(f)));
  check(listed, "the guide names each use case file that exports a helper");
}

// ---- hot sets: "Every database service has both sets", and the table says what `data.hot` holds
{
  const problems = [];
  const table = new Map();
  for (const line of DOC.split("\n")) {
    const m = /^\| ([a-z-]+) +\| (.*)\|$/.exec(line);
    if (m && SERVICES.includes(m[1])) table.set(m[1], [...m[2].matchAll(/`(\w+)` \(/g)].map((x) => x[1]).sort());
  }
  for (const service of SERVICES) {
    const file = path.join(ROOT, "services", service, "src", "data", "repositories.ts");
    if (!existsSync(file)) {
      if (existsSync(path.join(ROOT, "services", service, "prisma")))
        problems.push(`${service} has a database but no src/data/repositories.ts`);
      continue;
    }
    const sf = parse(file);
    const fns = new Map(exportedFunctions(sf).map((f) => [f.name, f.fn]));
    if (!fns.has("repositories")) problems.push(`${rel(file)}: no repositories()`);
    const hot = fns.get("hotRepositories");
    if (!hot) {
      problems.push(`${rel(file)}: no hotRepositories()`);
      continue;
    }
    let body = hot.body;
    // `=> { const sql = ...; return { ... }; }`: the object its return statement gives
    if (body && ts.isBlock(body)) body = body.statements.find((st) => ts.isReturnStatement(st))?.expression;
    while (body && ts.isParenthesizedExpression(body)) body = body.expression;
    const keys = body && ts.isObjectLiteralExpression(body) ? body.properties.map((p) => p.name.getText(sf)).sort() : null;
    if (!keys) problems.push(`${rel(file)}: hotRepositories does not return an object literal`);
    else if (JSON.stringify(keys) !== JSON.stringify(table.get(service) ?? null))
      problems.push(
        `${service}: data.hot is {${keys.join(", ")}}, the guide's table says {${(table.get(service) ?? ["(no row)"]).join(", ")}}`,
      );
  }
  check(problems, "every database service builds repositories() and hotRepositories(), and the table of hot sets names what each holds");
}

// ---- consumers: one start signature, started through the kit's startConsumers, stopped from the stop list
{
  // plain NATS subscriptions every replica holds (not durable event consumers), named in the guide
  const SUBSCRIPTIONS = new Set(["startWaitWakes", "startNotificationPush"]);
  const problems = [];
  for (const service of SERVICES) {
    for (const file of walk(path.join(ROOT, "services", service, "src", "messaging"), ".consumer.ts")) {
      const sf = parse(file);
      for (const { name, fn } of exportedFunctions(sf)) {
        if (SUBSCRIPTIONS.has(name)) continue;
        const ret = fn.type?.getText(sf) ?? "";
        if (name.startsWith("start")) {
          const types = paramTypes(sf, fn);
          if (types.length !== 2 || !/Deps$/.test(types[0]) || types[1] !== "Logger" || ret !== "Promise<RunningConsumer[]>")
            problems.push(`${rel(file)}: ${name}(${types.join(", ")}): ${ret || "?"}, not (deps, logger): Promise<RunningConsumer[]>`);
        }
      }
    }
    const app = readFileSync(path.join(ROOT, "services", service, "src", "app.ts"), "utf8");
    if (!app.includes("new StopList()") || !app.includes("stop: () => stops.stop()"))
      problems.push(`${service}/src/app.ts: startService's stop is not its StopList's`);
    if (walk(path.join(ROOT, "services", service, "src", "messaging"), ".consumer.ts").length > 0 && !app.includes("startConsumers(deps,"))
      problems.push(`${service}/src/app.ts: its consumers are not started with the kit's startConsumers`);
  }
  for (const name of SUBSCRIPTIONS) if (!DOC.includes(name)) problems.push(`the guide does not name ${name}`);
  check(
    problems,
    "every consumer start function is (deps, logger) => Promise<RunningConsumer[]>, started by startConsumers, and every service stops from its StopList",
  );
}

// ---- the kit: every subpath in the guide, in its layer order
{
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "packages", "service-kit", "package.json"), "utf8"));
  const subpaths = Object.keys(pkg.exports)
    .filter((k) => k !== ".")
    .map((k) => `@burnbox/service-kit/${k.slice(2)}`);
  check(
    subpaths.filter((s) => !DOC.includes(s)),
    `the guide names every subpath of the kit (${subpaths.length})`,
  );
  const spec = readFileSync(path.join(ROOT, "packages", "service-kit", "src", "layers.spec.ts"), "utf8");
  const layers = [
    ...spec.slice(spec.indexOf("const LAYERS"), spec.indexOf("};", spec.indexOf("const LAYERS"))).matchAll(/^ {2}(\w+): \[(.*)\],$/gm),
  ].map((m) => [m[1], m[2].replace(/"/g, "").split(", ").filter(Boolean)]);
  const problems = layers.length === 0 ? ["no LAYERS table in packages/service-kit/src/layers.spec.ts"] : [];
  for (const [layer, below] of layers) {
    const line = `| ${layer} |`;
    const row = DOC.split("\n").find((l) => l.replace(/`/g, "").replace(/ +/g, " ").startsWith(line));
    if (!row) problems.push(`the guide's table of layers has no row for ${layer}`);
    else if (below.some((b) => !row.includes(`\`${b}\``)) || (below.length === 0 && !row.includes("nothing")))
      problems.push(`the guide's row for ${layer} does not say it imports ${below.join(", ") || "nothing"}`);
  }
  check(problems, "the guide's table of the kit's layers says what each may import (the kit's layers.spec.ts)");
}

// ---- entrypoints and exceptions
{
  const problems = [];
  const file = (s, ...p) => path.join(ROOT, "services", s, ...p);
  const smtpMain = file("inbox", "src", "smtp-main.ts");
  if (!existsSync(smtpMain) || !readFileSync(smtpMain, "utf8").includes("startIntake(config, infra)"))
    problems.push("inbox/src/smtp-main.ts does not start startIntake");
  if (!readFileSync(file("inbox", "src", "main.ts"), "utf8").includes("startService(config, infra)"))
    problems.push("inbox/src/main.ts does not start startService");
  for (const d of ["data", "messaging"])
    if (existsSync(file("api-gateway", "src", d))) problems.push(`api-gateway has src/${d}, the guide says it has none`);
  if (existsSync(file("api-gateway", "prisma"))) problems.push("api-gateway has a database, the guide says it has none");
  if (!existsSync(file("api-gateway", "src", "http", "forwarding.ts")))
    problems.push("api-gateway's forwarding lane is not http/forwarding.ts");
  if (!existsSync(file("realtime-gateway", "src", "http", "inbox-stream.upgrade.ts")))
    problems.push("realtime-gateway's upgrade is not http/inbox-stream.upgrade.ts");
  const fanout = file("realtime-gateway", "src", "messaging", "fanout.consumer.ts");
  if (!readFileSync(fanout, "utf8").includes('deliverPolicy: "new"'))
    problems.push("realtime-gateway's fanout consumers are not per-replica (deliverPolicy new)");
  for (const claim of ["smtp-main.ts", "startIntake", "forwarding.ts", "inbox-stream.upgrade.ts", "fanout.consumer.ts"])
    if (!DOC.includes(claim)) problems.push(`the guide does not name ${claim}`);
  check(
    problems,
    "the SMTP intake's own entrypoint, the gateway without a database, the realtime gateway's upgrades and per-replica consumers",
  );
}

process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
