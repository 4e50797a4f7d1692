import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "../generated/prisma";

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
/** What a repository runs on: the plain client or a transaction. */
export type Client = Db | Tx;

export function createPrisma(url: string): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}

/** True when a write failed on a unique constraint. */
export const isUniqueViolation = (err: unknown): boolean => err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
