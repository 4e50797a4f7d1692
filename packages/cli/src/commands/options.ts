import { InvalidArgumentError } from "commander";
import type { EmailSummary } from "@burnbox/sdk";
import type { Terminal } from "../terminal.js";

/** Option parsers and the line shapes more than one command uses. */
export const positiveInt = (v: string): number => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError("a positive whole number");
  return Number(v);
};

export const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

export function emailRow(term: Terminal, e: Pick<EmailSummary, "id" | "received_at" | "from_address" | "subject">): void {
  term.row(e.id, e.received_at, e.from_address, e.subject);
}
