import { randomBytes } from "node:crypto";
import { ErrorCode } from "@burnbox/contracts";
import { AppError } from "@burnbox/service-kit/runtime";

/** A URL-safe slug from a display name; empty names get a random one. */
export function slugify(name: string): string {
  const s = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "") // the accents NFKD split off: "Crème" is "creme", not "cre-me"
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/g, "");
  return s || randomBytes(4).toString("hex");
}

export const withSuffix = (slug: string): string => `${slug.slice(0, 54)}-${randomBytes(3).toString("hex")}`;

const RETRIES = 4;

/** The conflict of a taken slug (the one conflict a derived slug retries; a quota or a taken name does not). */
export class SlugTakenError extends AppError {
  constructor(message: string) {
    super(ErrorCode.conflict, message);
  }
}
const isConflict = (err: unknown): boolean => err instanceof SlugTakenError;

/**
 * Runs `create` with the caller's slug, or one derived from the name. A derived slug that is
 * taken (a conflict) is retried with a random suffix, up to four times; a chosen one is not.
 */
export async function withFreeSlug<T>(
  input: { name: string; slug?: string | undefined },
  create: (slug: string) => Promise<T>,
): Promise<T> {
  const base = input.slug ?? slugify(input.name);
  for (let attempt = 0; ; attempt++) {
    try {
      return await create(attempt === 0 ? base : withSuffix(base));
    } catch (err) {
      if (!isConflict(err) || input.slug !== undefined || attempt >= RETRIES) throw err;
    }
  }
}
