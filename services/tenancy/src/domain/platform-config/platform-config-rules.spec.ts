import { mailerView, nextSealedSecret, secretChange, storageView } from "./platform-config-rules";

const seal = (plain: string) => `sealed(${plain})`;

describe('secret changes (contract notes: "" or absent keeps, null clears)', () => {
  it("when the secret is absent or empty, then the stored one is kept", () => {
    expect(nextSealedSecret("old", secretChange(undefined), seal)).toBe("old");
    expect(nextSealedSecret("old", secretChange(""), seal)).toBe("old");
  });

  it("when the secret is null, then it is cleared", () => {
    expect(nextSealedSecret("old", secretChange(null), seal)).toBeNull();
  });

  it("when a secret is given, then only its sealed form is kept", () => {
    expect(nextSealedSecret("old", secretChange("hunter2"), seal)).toBe("sealed(hunter2)");
  });

  it("when sealing is refused (no key), then the refusal propagates", () => {
    const refuse = () => {
      throw new Error("encryption.key is not configured");
    };
    expect(() => nextSealedSecret(null, secretChange("x"), refuse)).toThrow(/encryption.key/);
    expect(nextSealedSecret(null, secretChange(undefined), refuse)).toBeNull();
  });
});

describe("views", () => {
  it("when a mailer is saved, then its view says has_password and never carries the sealed password", () => {
    const view = mailerView({ host: "smtp.example.com", port: 587, username: "u", from: "a@b.c", tls: true, password_sealed: "v1.x.y.z" });
    expect(view).toEqual({ host: "smtp.example.com", port: 587, username: "u", from: "a@b.c", tls: true, has_password: true });
    expect(JSON.stringify(view)).not.toContain("v1.x.y.z");
  });

  it("when nothing is saved, then storage reads as local without a secret", () => {
    expect(storageView(null)).toEqual({ provider: "local", has_secret_key: false });
  });

  it("when s3 is saved, then the view has its fields and has_secret_key, not the key", () => {
    const view = storageView({
      provider: "s3",
      local_path: null,
      endpoint: "s3.example.com:9000",
      bucket: "mail",
      region: "eu-west-1",
      access_key: "AK",
      use_ssl: false,
      secret_key_sealed: "v1.a.b.c",
    });
    expect(view).toEqual({
      provider: "s3",
      endpoint: "s3.example.com:9000",
      bucket: "mail",
      region: "eu-west-1",
      access_key: "AK",
      use_ssl: false,
      has_secret_key: true,
    });
  });
});
