// Writes src/generated/openapi.ts, or with --check compares it with a fresh generation.
//   pnpm --filter @burnbox/sdk generate                          from packages/contracts
//   pnpm --filter @burnbox/sdk generate --from http://host:8080  from a running system
//   tsx scripts/generate-types.ts --check                        exit 1 when the file is stale
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { generatedTypes, loadDocument, STALE_MESSAGE } from "./openapi-types.js";

const at = process.argv.indexOf("--from");
const from = at > 0 ? process.argv[at + 1] : undefined;
const check = process.argv.includes("--check");
const out = fileURLToPath(new URL("../src/generated/openapi.ts", import.meta.url));
void loadDocument(from)
  .then(generatedTypes)
  .then((text) => {
    if (check) {
      const fresh = readFileSync(out, "utf8") === text;
      process.stdout.write(fresh ? "src/generated/openapi.ts is up to date\n" : `${STALE_MESSAGE}\n`);
      process.exitCode = fresh ? 0 : 1;
      return;
    }
    writeFileSync(out, text);
    process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
  });
