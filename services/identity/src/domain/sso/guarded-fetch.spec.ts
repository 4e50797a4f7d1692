import { nonPublicAddress } from "./guarded-fetch";

describe("nonPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "0.0.0.0",
    "::1",
    "fc00::1",
    "fe80::1",
    "::ffff:127.0.0.1",
  ])("when the address is %s, then it is refused", (a) => expect(nonPublicAddress(a)).toBe(true));

  it.each(["8.8.8.8", "2606:4700::1111"])("when the address is public (%s), then it is allowed", (a) =>
    expect(nonPublicAddress(a)).toBe(false),
  );
});
