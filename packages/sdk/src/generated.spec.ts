import { spawnSync } from "node:child_process";
import path from "node:path";

const SDK = path.join(__dirname, "..");
const TSX = path.join(SDK, "..", "..", "node_modules", ".bin", "tsx");

describe("the generated OpenAPI types", () => {
  // openapi-typescript is ESM-only at heart (its CommonJS build requires an ES module), so the
  // generation runs as its own process, as `pnpm --filter @burnbox/sdk generate` does
  it("when regenerated in memory from packages/contracts, then they equal the committed src/generated/openapi.ts", () => {
    const r = spawnSync(TSX, ["scripts/generate-types.ts", "--check"], { cwd: SDK, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${r.stdout}${r.stderr}`.trim());
    expect(r.stdout).toContain("up to date");
  });
});
