import { bodyOf, callbackUrl, draftFromPreset, presetOf } from "./sso-presets";

describe("the SSO presets' provider bodies", () => {
  it("when a preset needs no issuer, then none is sent, whatever the form held", () => {
    const d = { ...draftFromPreset(presetOf("google")), client_id: " id ", issuer_url: "https://x.example.com", tenant_id: "t" };
    expect(bodyOf(d)).toMatchObject({ provider_type: "google", name: "google", client_id: "id", issuer_url: null, tenant_id: null });
  });

  it("when azure or oidc, then the tenant or the issuer goes with it, and the scopes split on spaces and commas", () => {
    expect(bodyOf({ ...draftFromPreset(presetOf("azure")), tenant_id: "contoso.example" })).toMatchObject({
      tenant_id: "contoso.example",
      issuer_url: null,
    });
    const oidc = bodyOf({ ...draftFromPreset(presetOf("oidc")), issuer_url: "https://idp.example.com", scopes: "openid, email  profile" });
    expect(oidc).toMatchObject({ issuer_url: "https://idp.example.com", scopes: ["openid", "email", "profile"] });
  });

  it("when the secret is left empty, then it is left out (the stored one is kept); a typed one is sent", () => {
    expect(bodyOf(draftFromPreset(presetOf("okta")))).not.toHaveProperty("client_secret");
    expect(bodyOf({ ...draftFromPreset(presetOf("okta")), client_secret: "s" }).client_secret).toBe("s");
  });

  it("when the API base is relative, then the callback URL is absolute on the page's origin", () => {
    expect(callbackUrl("/api/v1", "okta", "https://bb.example.com/admin/sso")).toBe("https://bb.example.com/api/v1/auth/sso/okta/callback");
  });
});
