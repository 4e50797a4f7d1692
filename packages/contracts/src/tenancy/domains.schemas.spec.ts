import { DomainName } from "./domains.schemas";

describe("DomainName", () => {
  it.each(["mail.example.com", "E2E.BurnBox.Test", "demo.e2e.test", "a-b.co", "internal.example.com", "local.example.org"])(
    "when %s is given, then it is accepted (lower-cased)",
    (name) => {
      expect(DomainName.parse(name)).toBe(name.toLowerCase());
    },
  );

  it.each([
    "localhost",
    "10.0.0.1",
    "[::1]",
    "::1",
    "printer.local",
    "db.internal",
    "app.localhost",
    "X.Corp.INTERNAL",
    "com",
    "-a.example.com",
  ])("when %s is given, then it is refused", (name) => {
    expect(DomainName.safeParse(name).success).toBe(false);
  });
});
