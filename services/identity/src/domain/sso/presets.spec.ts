import { configuredGithub, resolveProviderIssuer } from "./presets";

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

describe("configuredGithub", () => {
  const sso = { github_url: "https://github.com", github_api_url: "https://api.github.com", unsafe_allowed_issuers: [] as string[] };
  it("when nothing is configured, then github.com and api.github.com are used", () => {
    expect(configuredGithub(sso)).toMatchObject({
      authorization: "https://github.com/login/oauth/authorize",
      token: "https://github.com/login/oauth/access_token",
      emails: "https://api.github.com/user/emails",
    });
  });
  it("when an origin is plain http, then start-up is refused unless it is an unsafe allowed issuer", () => {
    const local = { ...sso, github_url: "http://127.0.0.1:9999", github_api_url: "http://127.0.0.1:9999/" };
    expect(() => configuredGithub(local)).toThrow(/sso.github_url/);
    expect(configuredGithub({ ...local, unsafe_allowed_issuers: ["127.0.0.1"] })).toMatchObject({ user: "http://127.0.0.1:9999/user" });
  });
});
