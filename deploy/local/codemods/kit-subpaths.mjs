#!/usr/bin/env node
// Rewrites every import of the service kit's root (`from "@burnbox/service-kit"`) in services/,
// packages/, tests-e2e/ and bench/ to the subpaths that export each name (`/http`, `/messaging`,
// `/data`, `/security`, `/runtime`, `/telemetry`) and the tenant-removal names to
// `@burnbox/tenant-removal`. Which name lives where is read from the kit's subpath index files,
// so the script follows the kit as it changes. Idempotent: a second run changes nothing.
//
//   node deploy/local/codemods/kit-subpaths.mjs          rewrite, list the files changed
//   node deploy/local/codemods/kit-subpaths.mjs --check  change nothing; exit 1 if a root import is left
//
// A declaration it cannot split (a namespace import, a name no subpath exports) is left as it is
// and reported; the kit's root export keeps it working meanwhile.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const KIT = "@burnbox/service-kit";
const KIT_SRC = path.join(ROOT, "packages", "service-kit", "src");
const SUBPATHS = ["data", "http", "messaging", "runtime", "security"];
const PRINT_WIDTH = 140; // .prettierrc.json
const SCAN = ["services", "packages", "tests-e2e", "bench"];
const SKIP_DIRS = new Set(["node_modules", "generated", "dist", ".turbo", "coverage"]);

/** The names a module exports: declarations and `export { a, b as c }` lists. */
function exportedNames(file) {
  const text = readFileSync(file, "utf8");
  const names = new Set();
  const decl =
    /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:const|let|var|function\*?|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;
  for (const m of text.matchAll(decl)) names.add(m[1]);
  for (const m of text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm))
    for (const part of m[1].split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name) names.add(name);
    }
  return names;
}

/** The modules an index re-exports (`export * from "./x"`), as files. */
function reexported(indexFile) {
  const dir = path.dirname(indexFile);
  return [...readFileSync(indexFile, "utf8").matchAll(/^export \* from "(\.[^"]+)";/gm)].map((m) => path.join(dir, `${m[1]}.ts`));
}

/** name -> module specifier that exports it. */
function buildHome() {
  const home = new Map();
  const add = (names, specifier) => {
    for (const n of names) {
      if (home.has(n) && home.get(n) !== specifier) throw new Error(`${n} is exported by ${home.get(n)} and ${specifier}`);
      home.set(n, specifier);
    }
  };
  for (const sub of SUBPATHS) for (const file of reexported(path.join(KIT_SRC, sub, "index.ts"))) add(exportedNames(file), `${KIT}/${sub}`);
  add(exportedNames(path.join(KIT_SRC, "telemetry.ts")), `${KIT}/telemetry`);
  const removal = path.join(ROOT, "packages", "tenant-removal", "src", "index.ts");
  if (existsSync(removal)) add(exportedNames(removal), "@burnbox/tenant-removal");
  return home;
}

function* sourceFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP_DIRS.has(e.name) || e.name.startsWith(".")) continue;
    const file = path.join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(file);
    else if (/\.(ts|tsx|mts|cts|mjs|js)$/.test(e.name) && !e.name.endsWith(".d.ts")) yield file;
  }
}

/** `a`, `type B`, `c as d` -> { imported, local, type } */
function parseSpecifiers(list) {
  return list
    .split(",")
    .map((s) => s.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, "").trim())
    .filter(Boolean)
    .map((s) => {
      const type = /^type\s+/.test(s);
      const [imported, local] = s
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .map((x) => x.trim());
      return { imported, local: local ?? imported, type };
    });
}

const specText = (s, allType) => `${s.type && !allType ? "type " : ""}${s.imported}${s.local !== s.imported ? ` as ${s.local}` : ""}`;

/** One declaration, on one line when it fits, else one specifier a line (as prettier writes it). */
function declaration(keyword, typeOnly, specs, from, indent) {
  const head = `${keyword}${typeOnly ? " type" : ""}`;
  const items = specs.map((s) => specText(s, typeOnly));
  const line = `${indent}${head} { ${items.join(", ")} } from "${from}";`;
  if (line.length <= PRINT_WIDTH) return line;
  return `${indent}${head} {\n${items.map((i) => `${indent}  ${i},`).join("\n")}\n${indent}} from "${from}";`;
}

const home = buildHome();
const problems = [];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The file's text with its root imports split by subpath, or null when nothing changes. `root`:
 * how the file names the kit's root (the kit's own tests say "../src"); `local` turns a subpath
 * into the specifier this file uses.
 */
function rewrite(file, text, root = KIT, local = (from) => from) {
  let changed = false;
  const staticDecl = new RegExp(`^([ \\t]*)(import|export)(\\s+type)?\\s*\\{([^}]*)\\}\\s*from\\s*["']${escape(root)}["'];?`, "gm");
  let out = text.replace(staticDecl, (whole, indent, keyword, typeKw, list) => {
    const specs = parseSpecifiers(list);
    const unknown = specs.filter((s) => !home.has(s.imported));
    if (unknown.length > 0) {
      problems.push(`${path.relative(ROOT, file)}: no subpath exports ${unknown.map((s) => s.imported).join(", ")}`);
      return whole;
    }
    const groups = new Map();
    for (const s of specs) {
      const from = local(home.get(s.imported));
      if (!groups.has(from)) groups.set(from, []);
      groups.get(from).push(s);
    }
    changed = true;
    return [...groups.keys()]
      .sort()
      .map((from) => {
        const group = groups.get(from);
        const typeOnly = Boolean(typeKw) || group.every((s) => s.type);
        return declaration(keyword, typeOnly, group, from, indent);
      })
      .join("\n");
  });
  // `const { runService } = await import("@burnbox/service-kit")`: one subpath for every name
  const dynamic = new RegExp(`(\\{([^{}]*)\\}\\s*=\\s*await\\s+import\\(\\s*)["']${escape(root)}["'](\\s*\\))`, "g");
  out = out.replace(dynamic, (whole, before, list, after) => {
    const names = list
      .split(",")
      .map((s) => s.split(":")[0].trim())
      .filter(Boolean);
    const homes = new Set(names.map((n) => home.get(n)));
    if (homes.size !== 1 || homes.has(undefined)) {
      problems.push(`${path.relative(ROOT, file)}: dynamic import of ${names.join(", ")} left on the root`);
      return whole;
    }
    changed = true;
    return `${before}"${local([...homes][0])}"${after}`;
  });
  for (const m of out.matchAll(/import\s+\*\s+as\s+\w+\s+from\s+["']@burnbox\/service-kit["']/g))
    problems.push(`${path.relative(ROOT, file)}: namespace import left on the root (${m[0]})`);
  if (changed) out = mergeSameModule(out, root);
  return changed && out !== text ? out : null;
}

/** Two top-level declarations of one subpath (one the file had, one written here) become one. */
function mergeSameModule(text, root) {
  const decl = new RegExp(
    `^(import|export)(\\s+type)?\\s*\\{([^}]*)\\}\\s*from\\s*"((?:${escape(root)}\\/[\\w-]+)|@burnbox\\/tenant-removal)";[ \\t]*\\n?`,
    "gm",
  );
  const seen = new Map();
  for (const m of text.matchAll(decl)) {
    const key = `${m[1]}|${Boolean(m[2])}|${m[4]}`;
    if (!seen.has(key)) seen.set(key, []);
    seen.get(key).push(m);
  }
  let out = text;
  for (const matches of seen.values()) {
    if (matches.length < 2) continue;
    const [first] = matches;
    const typeOnly = Boolean(first[2]);
    const specs = [];
    for (const m of matches) for (const s of parseSpecifiers(m[3])) if (!specs.some((x) => x.local === s.local)) specs.push(s);
    const merged = `${declaration(first[1], typeOnly, specs, first[4], "")}\n`;
    // the later ones go, the first takes them all (replace from the end so offsets hold)
    for (const m of matches.slice(1).reverse()) out = out.slice(0, m.index) + out.slice(m.index + m[0].length);
    out = out.slice(0, first.index) + merged + out.slice(first.index + first[0].length);
  }
  return out;
}

const check = process.argv.includes("--check");
const changedFiles = [];
const KIT_TESTS = path.join(ROOT, "packages", "service-kit", "test");
for (const dir of SCAN) {
  const abs = path.join(ROOT, dir);
  if (!existsSync(abs)) continue;
  for (const file of sourceFiles(abs)) {
    if (file.startsWith(KIT_SRC + path.sep)) continue; // the kit itself imports relatively
    const text = readFileSync(file, "utf8");
    // the kit's own tests import its root as "../src": the same split, relative
    const next = file.startsWith(KIT_TESTS + path.sep)
      ? rewrite(file, text, "../src", (from) => from.replace(`${KIT}/`, "../src/"))
      : text.includes(KIT)
        ? rewrite(file, text)
        : null;
    if (next === null) continue;
    changedFiles.push(path.relative(ROOT, file));
    if (!check) writeFileSync(file, next);
  }
}

// a package that now imports @burnbox/tenant-removal must depend on it
const needs = new Set();
for (const f of changedFiles) {
  const text = readFileSync(path.join(ROOT, f), "utf8");
  if (!text.includes('"@burnbox/tenant-removal"')) continue;
  let dir = path.dirname(path.join(ROOT, f));
  while (!existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  const deps = { ...pkg.dependencies, ...pkg.devDependencies };
  if (!deps["@burnbox/tenant-removal"]) needs.add(path.relative(ROOT, dir));
}

for (const f of changedFiles) console.log(`${check ? "would rewrite" : "rewrote"} ${f}`);
for (const p of problems) console.error(`left: ${p}`);
for (const d of needs) console.error(`add "@burnbox/tenant-removal": "workspace:*" to ${d}/package.json (then pnpm install)`);
console.log(`${changedFiles.length} file(s) ${check ? "to rewrite" : "rewritten"}, ${problems.length} left as they are`);
if (check && changedFiles.length > 0) process.exit(1);
