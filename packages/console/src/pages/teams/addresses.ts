/** Addresses from a pasted list: one per line, or separated by commas, semicolons or spaces; each once, in order. */
export const parseAddresses = (text: string): string[] => [
  ...new Set(
    text
      .split(/[\s,;]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];
