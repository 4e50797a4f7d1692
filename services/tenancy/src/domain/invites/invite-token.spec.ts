import { createHash } from "node:crypto";
import { hashInviteToken, isInviteToken, newInviteToken } from "./invite-token";

describe("invite tokens", () => {
  it("when a token is made, then it is 64 hex characters and its hash is its SHA-256", () => {
    const { token, hash } = newInviteToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(hash).not.toBe(token);
    expect(hashInviteToken(token)).toBe(hash);
  });

  it("when two tokens are made, then they differ", () => {
    expect(newInviteToken().token).not.toBe(newInviteToken().token);
  });

  it("when a string is not 64 lowercase hex characters, then it is not a token", () => {
    expect(isInviteToken("a".repeat(64))).toBe(true);
    expect(isInviteToken("A".repeat(64))).toBe(false);
    expect(isInviteToken("a".repeat(63))).toBe(false);
    expect(isInviteToken("")).toBe(false);
  });
});
