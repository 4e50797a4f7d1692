import argon2 from "argon2";
import type { IdentityConfig } from "../config";

export type PasswordPolicy = IdentityConfig["password"];

/** The first rule a password breaks, or null when it meets the policy. */
export function passwordProblem(password: string, policy: PasswordPolicy): string | null {
  if (password.length < policy.min_length) return `password must be at least ${policy.min_length} characters`;
  if (policy.require_uppercase && !/[A-Z]/.test(password)) return "password must contain an uppercase letter";
  if (policy.require_lowercase && !/[a-z]/.test(password)) return "password must contain a lowercase letter";
  if (policy.require_digit && !/[0-9]/.test(password)) return "password must contain a digit";
  if (policy.require_symbol && !/[^A-Za-z0-9]/.test(password)) return "password must contain a symbol";
  return null;
}

export class PasswordHasher {
  private dummy: Promise<string> | null = null;
  constructor(private readonly cost: IdentityConfig["auth"]["argon2"]) {}

  hash(password: string): Promise<string> {
    return argon2.hash(password, {
      type: argon2.argon2id,
      memoryCost: this.cost.memory_kib,
      timeCost: this.cost.time_cost,
      parallelism: this.cost.parallelism,
    });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real check, so unknown emails cannot be told apart by timing. */
  async verifyNobody(password: string): Promise<false> {
    this.dummy ??= this.hash("not-a-real-password-Aa1!");
    await this.verify(await this.dummy, password);
    return false;
  }
}
