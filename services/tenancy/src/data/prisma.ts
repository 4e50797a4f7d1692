import { prismaAdapter, type PgPool } from "@burnbox/service-kit/data";
import { Prisma, PrismaClient } from "../generated/prisma";

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
/** What a repository runs on: the plain client or an interactive transaction. */
export type Client = Db | Tx;
export type JsonValue = Prisma.JsonValue;
/** Settings as written: flat JSON values. */
/** A stored setting: a scalar, or (extensions 10, `outbound`) an object of lists. */
export type SettingsValues = Record<string, string | number | boolean | null | { allowed_recipients: string[] }>;

/** The client on the process's one pool (Infra.pool), which raw statements share. */
export const createPrisma = (pool: PgPool): Db => new PrismaClient({ adapter: prismaAdapter(pool) });

/** True when a write failed on a unique constraint. */
const isUniqueViolation = (err: unknown): boolean => err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";

/** Runs a write, turning a unique violation (and only that) into the given error. */
export async function uniqueOr<T>(write: Promise<T>, onDuplicate: () => Error): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw onDuplicate();
    throw err;
  }
}

/** A JSON column holding an object (settings); anything else reads as empty. */
export const jsonObject = (v: JsonValue): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? v : {});

export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
