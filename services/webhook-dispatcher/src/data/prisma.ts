import { prismaAdapter, type PgPool } from "@burnbox/service-kit/data";
import { Prisma, PrismaClient } from "../generated/prisma";

export { Prisma };
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

/** The client on the process's one pool (Infra.pool), which raw statements share. */
export const createPrisma = (pool: PgPool): Db => new PrismaClient({ adapter: prismaAdapter(pool) });

/** True when an update or delete addressed a row that is not there (`P2025`). */
export const isRecordNotFound = (err: unknown): boolean => err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2025";
