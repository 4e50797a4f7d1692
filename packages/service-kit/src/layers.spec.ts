import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The kit's subpaths are layers: each imports only the ones below it (type-only imports included),
 * so no import runs in a circle. `runtime` composes the rest; `core` holds the primitives every
 * layer uses. docs/service-layout.md draws the same table.
 */
const LAYERS: Record<string, readonly string[]> = {
  telemetry: [],
  core: ["telemetry"],
  messaging: ["core", "telemetry"],
  data: ["messaging", "core", "telemetry"],
  security: ["messaging", "core", "telemetry"],
  http: ["security", "core", "telemetry"],
  runtime: ["http", "data", "security", "messaging", "core", "telemetry"],
};

const SRC = __dirname;
const pkg = JSON.parse(readFileSync(path.join(SRC, "..", "package.json"), "utf8")) as { exports: Record<string, string> };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** `core/logger.ts` -> `core`; `telemetry.ts` -> `telemetry`; the root `index.ts` (and this spec) -> `root`. */
function layerOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts.length === 1) return /^telemetry(\.spec)?\.ts$/.test(parts[0] ?? "") ? "telemetry" : "root";
  return parts[0] ?? "";
}

/** The kit files `file` imports (static, dynamic and type-only), resolved to paths. */
function kitImports(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles
    .map((ref) => ref.fileName)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => {
      const base = path.resolve(path.dirname(file), spec);
      const candidates = [`${base}.ts`, path.join(base, "index.ts"), base];
      const found = candidates.find((c) => files.includes(c));
      if (!found) throw new Error(`${path.relative(SRC, file)} imports ${spec}, which is not a kit source file`);
      return found;
    });
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, kitImports(f)] as const));
const rel = (f: string) => path.relative(SRC, f);

describe("the kit's layers", () => {
  it("when a file imports another subpath, then that subpath is below its own", () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      const from = layerOf(file);
      if (from === "root") continue;
      const allowed = LAYERS[from];
      if (!allowed) {
        upward.push(`${rel(file)}: in no layer (add its folder to LAYERS)`);
        continue;
      }
      for (const target of imports) {
        const to = layerOf(target);
        if (to !== from && !allowed.includes(to))
          upward.push(`${rel(file)} -> ${rel(target)} (${from} may import ${allowed.join(", ") || "nothing"})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("when the imports between files are followed, then none comes back to where it started", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, trail: string[]): void => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...trail.slice(trail.indexOf(file)), file].map(rel).join(" -> "));
        return;
      }
      state.set(file, "open");
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("when nothing but the root export is the whole kit, then no kit file imports it", () => {
    const root = path.join(SRC, "index.ts");
    expect(files.filter((f) => graph.get(f)?.includes(root)).map(rel)).toEqual([]);
  });

  it("when a layer is listed, then package.json exports it as a subpath", () => {
    const subpaths = Object.keys(pkg.exports).filter((k) => k !== ".");
    expect(subpaths.sort()).toEqual(
      Object.keys(LAYERS)
        .map((l) => `./${l}`)
        .sort(),
    );
  });

  it("when the layer table itself is followed, then it has no cycle", () => {
    const below = (layer: string, seen: string[]): boolean =>
      (LAYERS[layer] ?? []).every((l) => !seen.includes(l) && below(l, [...seen, l]));
    expect(Object.keys(LAYERS).filter((l) => !below(l, [l]))).toEqual([]);
  });
});
