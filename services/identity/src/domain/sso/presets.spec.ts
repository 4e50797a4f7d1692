import { resolveProviderIssuer } from "./presets";

describe("resolveProviderIssuer", () => {
  it("when the provider is google, then the preset issuer is used", () => {
    expect(resolveProviderIssuer({ provider_type: "google" }, [])).toEqual({ issuerUrl: "https://accounts.google.com", tenantId: null });
  });

  it("when the provider is azure, then the tenant is required and names the issuer", () => {
    expect(resolveProviderIssuer({ provider_type: "azure", tenant_id: "contoso.onmicrosoft.com" }, [])).toEqual({
      issuerUrl: "https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0",
      tenantId: "contoso.onmicrosoft.com",
    });
    expect(() => resolveProviderIssuer({ provider_type: "azure" }, [])).toThrow(/tenant_id/);
  });

  it("when the provider is oidc or okta, then an https issuer_url is required", () => {
    expect(() => resolveProviderIssuer({ provider_type: "okta" }, [])).toThrow(/issuer_url/);
    expect(() => resolveProviderIssuer({ provider_type: "oidc", issuer_url: "http://idp.example.com" }, [])).toThrow(/https/);
    expect(resolveProviderIssuer({ provider_type: "oidc", issuer_url: "https://idp.example.com/" }, []).issuerUrl).toBe(
      "https://idp.example.com",
    );
  });

  it("when the provider is github, then it has no issuer", () => {
    expect(resolveProviderIssuer({ provider_type: "github", issuer_url: "https://x.example.com" }, [])).toEqual({
      issuerUrl: null,
      tenantId: null,
    });
  });
});
