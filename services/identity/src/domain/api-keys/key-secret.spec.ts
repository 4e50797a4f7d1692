import { createHash } from "node:crypto";
import { AppError } from "@burnbox/service-kit/runtime";
import { newRawKey, normalizeAllowedIps } from "./key-secret";

describe("newRawKey", () => {
  it("when a key is made, then it is bb_ + 64 hex, its hash is the SHA-256 of the whole key and its prefix the first 11 characters", () => {
    const { raw, hash, prefix } = newRawKey();
    expect(raw).toMatch(/^bb_[0-9a-f]{64}$/);
    expect(hash).toBe(createHash("sha256").update(raw).digest("hex"));
    expect(prefix).toBe(raw.slice(0, 11));
  });

  it("when two keys are made, then they differ", () => {
    expect(newRawKey().raw).not.toBe(newRawKey().raw);
  });
});

describe("normalizeAllowedIps", () => {
  it("when entries are addresses or ranges in any spelling, then they come back in canonical form", () => {
    expect(normalizeAllowedIps([" 10.0.0.1 ", "2001:DB8:0:0::1", "192.168.1.0/24", "2001:DB8::/32"])).toEqual([
      "10.0.0.1",
      "2001:db8::1",
      "192.168.1.0/24",
      "2001:db8::/32",
    ]);
  });

  it.each(["10.0.0.300", "10.0.0.0/33", "example.com", "::1/129"])("when an entry is %s, then it is a 400 naming it", (entry) => {
    const attempt = () => normalizeAllowedIps(["10.0.0.1", entry]);
    expect(attempt).toThrow(AppError);
    expect(attempt).toThrow(`allowed_ips: "${entry}" is not an IP address or CIDR range`);
  });
});
