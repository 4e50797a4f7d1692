import { SecretBox } from "./secret-box";

const KEY = "11".repeat(32);

describe("SecretBox", () => {
  it("when a secret is sealed, then it opens to the same text and never contains it", () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal("s3cret-value");
    expect(sealed).not.toContain("s3cret");
    expect(box.open(sealed)).toBe("s3cret-value");
  });

  it("when the same secret is sealed twice, then the nonces differ", () => {
    const box = new SecretBox(KEY);
    expect(box.seal("x")).not.toBe(box.seal("x"));
  });

  it("when a sealed value is tampered with or opened with another key, then opening fails", () => {
    const sealed = new SecretBox(KEY).seal("value");
    const parts = sealed.split(".");
    const data = Buffer.from(parts[3] ?? "", "base64url");
    data[0] = (data[0] ?? 0) ^ 1;
    expect(() => new SecretBox(KEY).open([parts[0], parts[1], parts[2], data.toString("base64url")].join("."))).toThrow();
    expect(() => new SecretBox("22".repeat(32)).open(sealed)).toThrow();
  });

  it("when no key is configured, then sealing is a 400", () => {
    expect(() => new SecretBox("").seal("x")).toThrow(/encryption.key/);
  });
});
