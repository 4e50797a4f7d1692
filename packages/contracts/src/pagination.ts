import { z } from "./zod";

export const PER_PAGE_DEFAULT = 20;
export const PER_PAGE_MAX = 100;
export const BULK_MAX_IDS = 50;

const pageInt = (name: string, def: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return def;
      if (!/^\d+$/.test(v)) {
        ctx.addIssue({ code: "custom", message: `${name} must be an integer` });
        return z.NEVER;
      }
      const n = Number(v);
      if (n < 1 || n > max) {
        ctx.addIssue({ code: "custom", message: `${name} must be between 1 and ${max}` });
        return z.NEVER;
      }
      return n;
    })
    .openapi({ type: "integer", minimum: 1, maximum: max, default: def });

/** Query of every list endpoint (contract notes: out-of-range values are a 400, never clamped). */
export const PaginationQuery = z.object({
  page: pageInt("page", 1, Number.MAX_SAFE_INTEGER),
  per_page: pageInt("per_page", PER_PAGE_DEFAULT, PER_PAGE_MAX),
});
export type PaginationQuery = z.infer<typeof PaginationQuery>;

export function paginated<T extends z.ZodTypeAny>(item: T, name: string) {
  return z
    .object({
      data: z.array(item),
      total: z.number().int(),
      page: z.number().int(),
      per_page: z.number().int(),
      total_pages: z.number().int(),
    })
    .openapi(name);
}

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  per_page: number;
  total_pages: number;
}

export function toPage<T>(data: T[], total: number, q: PaginationQuery): Page<T> {
  return { data, total, page: q.page, per_page: q.per_page, total_pages: Math.ceil(total / q.per_page) };
}

export function pageWindow(q: PaginationQuery): { skip: number; take: number } {
  return { skip: (q.page - 1) * q.per_page, take: q.per_page };
}
