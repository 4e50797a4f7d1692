import { prismaAdapter, type PgPool } from "@burnbox/service-kit/data";
import { Prisma, PrismaClient } from "../generated/prisma";

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
/** What a repository runs on: the plain client or a transaction. */
export type Client = Db | Tx;

/** The client on the process's one pool (Infra.pool), which raw statements share. */
export const createPrisma = (pool: PgPool): Db => new PrismaClient({ adapter: prismaAdapter(pool) });

/** True when a write failed on a unique constraint. */
export const isUniqueViolation = (err: unknown): boolean => err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
