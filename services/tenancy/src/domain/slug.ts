import { randomBytes } from "node:crypto";

/** A URL-safe slug from a display name; empty names get a random one. */
export function slugify(name: string): string {
  const s = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/g, "");
  return s || randomBytes(4).toString("hex");
}

export const withSuffix = (slug: string): string => `${slug.slice(0, 54)}-${randomBytes(3).toString("hex")}`;
