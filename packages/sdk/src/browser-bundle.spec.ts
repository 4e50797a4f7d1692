import path from "node:path";
import { build } from "esbuild";

describe("the SDK in a browser bundle", () => {
  it("when bundled for the browser, then it builds and imports nothing from node: or ws", async () => {
    const result = await build({
      entryPoints: [path.join(__dirname, "index.ts")],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(imports.filter((p) => p.startsWith("node:") || p === "ws")).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toMatch(/from\s*["']node:|require\(["'](node:|ws["'])/);
    expect(code).toContain("x-service-signature");
  });
});
