import type { components } from "@burnbox/sdk";

export type PasswordPolicy = components["schemas"]["PasswordPolicy"];

/** The rules the API applies to a new password, in words. */
export function describePolicy(p: PasswordPolicy | undefined): string | undefined {
  if (!p) return undefined;
  const needs = [
    p.require_lowercase && "a lowercase letter",
    p.require_uppercase && "an uppercase letter",
    p.require_digit && "a digit",
    p.require_symbol && "a symbol",
  ].filter(Boolean);
  return `At least ${p.min_length} characters${needs.length ? `, with ${needs.join(", ")}` : ""}.`;
}
