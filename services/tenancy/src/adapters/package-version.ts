import { readFileSync } from "node:fs";

/** The `version` of a package.json (read once at start); "unknown" when the file is not there. */
export function packageVersion(file: string): string {
  try {
    const v = (JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version;
    return typeof v === "string" ? v : "unknown";
  } catch {
    return "unknown";
  }
}
