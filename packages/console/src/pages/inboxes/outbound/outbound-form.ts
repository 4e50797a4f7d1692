import type { FormErrors } from "@mantine/form";

/** Addresses typed into one field: split on commas, semicolons and white space, blanks dropped. */
export const splitAddresses = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter((a) => a !== "");

/** Text of a body field, or absent when blank (the contract wants at least one of text and html). */
export const optionalText = (text: string): string | undefined => (text.trim() === "" ? undefined : text);

/** A message's text and HTML parts as the contract takes them: each absent when left blank. */
export const bodyParts = (v: { text: string; html: string }): { text?: string; html?: string } => {
  const text = optionalText(v.text);
  const html = optionalText(v.html);
  return { ...(text !== undefined ? { text } : {}), ...(html !== undefined ? { html } : {}) };
};

/**
 * The first error the contract gave a list field or one of its items (`to`, `to.0`, …), so it
 * shows under the one input the addresses are typed into.
 */
const textOf = (e: unknown): string => (typeof e === "string" ? e : "is not valid");

export function listError(errors: FormErrors, field: string): string | undefined {
  const own = errors[field];
  if (own) return textOf(own);
  const item = Object.entries(errors).find(([k]) => k.startsWith(`${field}.`));
  if (!item) return undefined;
  const i = Number(item[0].slice(field.length + 1).split(".")[0]);
  return Number.isInteger(i) ? `Address ${i + 1}: ${textOf(item[1])}` : textOf(item[1]);
}

/** The heading of a refused send, in the words of what went wrong (the API's message goes under it). */
export function outboundErrorTitle(error: unknown): string | undefined {
  // a BurnBoxError (status and the API's message), told by its shape so this module stays plain
  if (!(error instanceof Error) || typeof (error as { status?: unknown }).status !== "number") return undefined;
  const status = (error as Error & { status: number }).status;
  if (status === 403 && /^recipient not allowed/i.test(error.message)) return "Recipient not allowed";
  if (status === 429) return "Hourly sending limit reached";
  if (status === 409) return "The inbox's domain is not verified";
  return undefined;
}
