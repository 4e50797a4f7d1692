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

// ---- use cases: "exports one function, its use case, under the file's name", the deps first, the caller's context or
// the logger right after them; besides it only types and constants; another use case file is imported for its use case only
{
  const CONTEXTS = new Set(["RequestCtx", "PublicCtx"]);
  const files = SERVICES.flatMap((s) => walk(path.join(ROOT, "services", s, "src", "domain"), ".use-case.ts"));
  const shape = [];
  const extra = [];
  for (const file of files) {
    const sf = parse(file);
    const name = camel(path.basename(file, ".use-case.ts"));
    const fns = exportedFunctions(sf);
    const others = fns.filter((f) => f.name !== name).map((f) => f.name);
    if (others.length > 0) extra.push(`${rel(file)}: exports ${others.join(", ")} beside its use case`);
    for (const st of sf.statements)
      if (isExported(st) && (ts.isClassDeclaration(st) || ts.isEnumDeclaration(st) || ts.isExportDeclaration(st)))
        extra.push(`${rel(file)}: exports a ${ts.SyntaxKind[st.kind]} beside its use case`);
    const useCase = fns.find((f) => f.name === name);
    if (!useCase) {
      shape.push(`${rel(file)}: exports no function ${name}`);
      continue;
    }
    const types = paramTypes(sf, useCase.fn);
    const deps = types.findIndex((t) => !/Deps$/.test(t));
    const first = deps === -1 ? types.length : deps; // how many deps lead
    if (first === 0) shape.push(`${rel(file)}: ${name}'s first parameter is ${types[0] ?? "missing"}, not the service's deps`);
    types.forEach((t, i) => {
      if ((CONTEXTS.has(t) || t === "Logger") && i !== first)
        shape.push(`${rel(file)}: ${name} takes its ${t} at position ${i + 1}, not right after its deps`);
    });
  }
  check(
    files.length > 0 ? shape : ["no use case found"],
    `every *.use-case.ts (${files.length}) exports its use case under the file's name, the deps first and its RequestCtx, PublicCtx or Logger right after them`,
  );
  check(extra, "a use case file exports one function, its use case, and besides it only types and constants");
  // a helper two use cases share lives in a module of its own: what src imports from a use case file is its use case
  const borrowed = [];
  for (const service of SERVICES)
    for (const file of walk(path.join(ROOT, "services", service, "src"), ".ts")) {
      const sf = parse(file);
      for (const st of sf.statements) {
        if (!ts.isImportDeclaration(st) || !st.moduleSpecifier.text.endsWith(".use-case")) continue;
        const clause = st.importClause;
        if (!clause || clause.isTypeOnly) continue;
        const owner = camel(path.basename(st.moduleSpecifier.text, ".use-case"));
        const names = clause.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
        for (const el of names)
          if (!el.isTypeOnly && (el.propertyName ?? el.name).text !== owner)
            borrowed.push(`${rel(file)}: imports ${(el.propertyName ?? el.name).text} from ${st.moduleSpecifier.text}`);
        if (clause.name || (clause.namedBindings && ts.isNamespaceImport(clause.namedBindings)))
          borrowed.push(`${rel(file)}: imports ${st.moduleSpecifier.text} whole, not its use case by name`);
      }
    }
  check(borrowed, "the services' code imports from a use case file only its use case (and types)");
}

// ---- the tree: the scripts, where env is read, main.ts, the adapters it names, the workers, the tenant-removal consumers
{
  const problems = [];
  const importsOf = (sf) => sf.statements.filter((st) => ts.isImportDeclaration(st)).map((st) => st.moduleSpecifier.text);
  // "adapters/<thing>.ts ... (api-gateway: console-files, ...; inbox: local-storage, ...)": the list in the tree
  const start = DOC.indexOf("src/adapters/<thing>.ts");
  const list = DOC.slice(start, DOC.indexOf("src/messaging/*.consumer.ts", start)).replace(/\s+/g, " ");
  const named = new Map(
    list
      .slice(list.indexOf("(") + 1, list.indexOf(")"))
      .split("; ")
      .map((part) => part.split(": "))
      .map(([service, items]) => [
        service.trim(),
        items
          .split(", ")
          .filter((x) => /^[a-z0-9-]+$/.test(x))
          .sort(),
      ]),
  );
  for (const service of SERVICES) {
    const dir = path.join(ROOT, "services", service);
    const hasDb = existsSync(path.join(dir, "prisma"));
    const scripts = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).scripts ?? {};
    const wanted = ["start", "build", "typecheck", "lint", "test", ...(hasDb ? ["db:generate", "db:migrate", "db:diff"] : [])];
    const missing = wanted.filter((k) => !scripts[k]);
    if (missing.length > 0) problems.push(`${service}/package.json has no script ${missing.join(", ")}`);
    const mains = ["main.ts", "smtp-main.ts", "mailbox-main.ts"].map((m) => path.join(dir, "src", m)).filter(existsSync);
    for (const file of walk(path.join(dir, "src"), ".ts")) {
      if (file.endsWith(".spec.ts") || file.endsWith("config.ts") || mains.includes(file)) continue;
      if (/\bprocess\.env\b/.test(readFileSync(file, "utf8")))
        problems.push(`${rel(file)} reads process.env (only config.ts and main.ts do)`);
    }
    for (const file of mains) {
      const loaded = importsOf(parse(file)).filter((m) => !m.startsWith("node:") && m !== "@burnbox/service-kit/telemetry");
      if (loaded.length > 0)
        problems.push(`${rel(file)} loads ${loaded.join(", ")} before startTelemetry (only by dynamic import after it)`);
    }
    const adapters = walk(path.join(dir, "src", "adapters"), ".ts")
      .filter((f) => !f.endsWith(".spec.ts"))
      .map((f) => path.basename(f, ".ts"))
      .sort();
    if (JSON.stringify(adapters) !== JSON.stringify(named.get(service) ?? []))
      problems.push(
        `${service}/src/adapters holds ${adapters.join(", ") || "nothing"}; the guide names ${(named.get(service) ?? []).join(", ") || "none"}`,
      );
    for (const file of walk(path.join(dir, "src", "workers"), ".worker.ts"))
      if (!readFileSync(file, "utf8").includes("startPeriodicTask(")) problems.push(`${rel(file)} is not a startPeriodicTask`);
    for (const file of walk(path.join(dir, "src", "domain"), ".use-case.ts")) {
      const orm = importsOf(parse(file)).filter((m) => m === "express" || m.includes("prisma"));
      if (orm.length > 0) problems.push(`${rel(file)} imports ${orm.join(", ")} (no express, no Prisma in a use case)`);
    }
  }
  for (const service of ["inbox", "webhook-dispatcher", "identity"]) {
    const file = path.join(ROOT, "services", service, "src", "messaging", "tenancy-events.consumer.ts");
    if (!existsSync(file) || !readFileSync(file, "utf8").includes("startTenantEventConsumers("))
      problems.push(`${service} does not follow tenancy's removals with startTenantEventConsumers in messaging/tenancy-events.consumer.ts`);
  }
  const gatewayUseCases = walk(path.join(ROOT, "services", "api-gateway", "src", "domain"), ".use-case.ts").filter(
    (f) => !f.includes(`${path.sep}domain${path.sep}docs${path.sep}`),
  );
  for (const f of gatewayUseCases) problems.push(`${rel(f)}: the api-gateway's only use cases are the API docs'`);
  check(
    problems,
    "every service has the tree's scripts, reads env only in config.ts and main.ts, loads nothing before startTelemetry, holds the adapters the guide names, runs its workers as periodic tasks; use cases import no express or Prisma",
  );
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
  const SUBSCRIPTIONS = new Set(["startWaitWakes", "startLegacyNotificationPush"]);
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
  if (!readFileSync(smtpMain, "utf8").includes("port: 8106") || !DOC.includes("8106 by default"))
    problems.push("the SMTP intake's health port is not 8106 by default, as the guide says");
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
