/** The addresses in pasted text (commas, semicolons, spaces or new lines between them), as typed, empty parts dropped. */
export function parseAddresses(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter((a) => a.length > 0);
}
