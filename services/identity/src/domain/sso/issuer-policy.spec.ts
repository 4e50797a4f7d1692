import { issuerRefusal } from "./issuer-policy";

describe("issuerRefusal", () => {
  it("when the issuer is https, then it is accepted", () => {
    expect(issuerRefusal("https://idp.example.com/realms/x", [])).toBeNull();
  });

  it("when the issuer is http and not allowed, then it is refused", () => {
    expect(issuerRefusal("http://idp.example.com", [])).toMatch(/https/);
  });

  it("when the issuer's host, host:port or origin is allowed, then http is accepted", () => {
    expect(issuerRefusal("http://127.0.0.1:9000", ["127.0.0.1"])).toBeNull();
    expect(issuerRefusal("http://127.0.0.1:9000", ["127.0.0.1:9000"])).toBeNull();
    expect(issuerRefusal("http://127.0.0.1:9000", ["http://127.0.0.1:9000"])).toBeNull();
    expect(issuerRefusal("http://127.0.0.1:9001", ["127.0.0.1:9000"])).toMatch(/https/);
  });

  it("when the issuer is not a URL, has credentials or a query, then it is refused", () => {
    expect(issuerRefusal("not a url", [])).toMatch(/URL/);
    expect(issuerRefusal("https://u:p@idp.example.com", [])).toMatch(/credentials/);
    expect(issuerRefusal("https://idp.example.com?x=1", [])).toMatch(/query/);
    expect(issuerRefusal("ftp://idp.example.com", ["idp.example.com"])).toMatch(/https/);
  });
});
