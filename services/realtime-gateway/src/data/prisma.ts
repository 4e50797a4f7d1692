import { PrismaPg } from "@prisma/adapter-pg";
import { Prisma, PrismaClient } from "../generated/prisma";

export { Prisma };
export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

export function createPrisma(url: string): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
}

/** True when an update or delete addressed a row that is not there (`P2025`). */
export const isRecordNotFound = (err: unknown): boolean => err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2025";
