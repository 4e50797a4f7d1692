import type { FormErrors } from "@mantine/form";

/**
 * The contract's first complaint about a list a form sends (`emails`, `members`), naming the item
 * it is about: `members.2.email` speaks of `items[2]` ("ada@x: Invalid email address"). For a
 * field that holds the list as text (pasted addresses), where the error cannot go under an item.
 */
export function firstItemError(errors: FormErrors, key: string, items: string[]): string | undefined {
  for (const [path, message] of Object.entries(errors)) {
    if ((path !== key && !path.startsWith(`${key}.`)) || typeof message !== "string") continue;
    const at = new RegExp(`^${key}\\.(\\d+)`).exec(path);
    return at ? `${items[Number(at[1])]}: ${message}` : message;
  }
  return undefined;
}
