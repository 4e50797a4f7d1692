/** Only a path inside the console, never another site (`//evil.example`, `/\evil.example`, `https://…`). */
export function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
}
