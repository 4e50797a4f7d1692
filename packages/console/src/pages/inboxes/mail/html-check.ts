// The HTML check's answer (extensions section 7) put in the shape the reader shows: the score as given, the issues that count
// apart from the document's wrappers, and caniemail's notes with the clients that share a text together.
import type { HtmlCheck } from "@burnbox/sdk";

export type HtmlCheckIssue = HtmlCheck["issues"][number];

/** The score as the API gives it, a percentage with one decimal: `87.7%`, `100%` (never rounded to a whole number). */
export function formatScore(score: number): string {
  return `${Math.round(score * 10) / 10}%`;
}

/** The issues that count in the score, and the wrapper elements (`scored: false`) listed apart. */
export function splitIssues(issues: readonly HtmlCheckIssue[]): { scored: HtmlCheckIssue[]; unscored: HtmlCheckIssue[] } {
  return { scored: issues.filter((i) => i.scored), unscored: issues.filter((i) => !i.scored) };
}

/** One note and every client it is given for, in the order the clients first appear. */
export type GroupedNote = { clients: string[]; text: string };

/** An issue's notes (`{client: text}`), the clients with the same text in one entry, as caniemail often repeats a note per platform. */
export function groupNotes(notes: Readonly<Record<string, string>>): GroupedNote[] {
  const byText = new Map<string, string[]>();
  for (const [client, text] of Object.entries(notes)) {
    const clients = byText.get(text);
    if (clients) clients.push(client);
    else byText.set(text, [client]);
  }
  return [...byText].map(([text, clients]) => ({ clients, text }));
}

/** A piece of a note: caniemail writes them in Markdown, with `code` spans and [links](…). */
export type NotePart = { code: boolean; text: string };

/** A note's text in plain and code pieces; a Markdown link keeps its text only (nothing in a note is made a link). */
export function noteParts(note: string): NotePart[] {
  const plain = note.replace(/\[([^\]]+)\]\([^)\s]+\)/g, "$1");
  return plain
    .split("`")
    .map((text, i) => ({ code: i % 2 === 1, text }))
    .filter((p) => p.text !== "");
}
