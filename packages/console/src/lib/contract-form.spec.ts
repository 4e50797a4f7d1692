import { CreateDomainBody } from "@burnbox/contracts/src/tenancy/domains.schemas";
import { CreateInviteBody } from "@burnbox/contracts/src/tenancy/invites.schemas";
import { contractErrors } from "./contract-form";

describe("contractErrors", () => {
  const domain = contractErrors(CreateDomainBody);

  it("accepts what the API accepts", () => {
    expect(domain({ domain_name: "mail.example.com" })).toEqual({});
    expect(domain({ domain_name: " Mail.Example.COM ", description: "QA" })).toEqual({});
  });

  it("refuses what the API refuses, with the contract's message under the field", () => {
    expect(domain({ domain_name: "localhost" })).toEqual({ domain_name: "must be a domain name such as mail.example.com" });
    expect(domain({ domain_name: "qa.internal" })).toEqual({
      domain_name: "must be a public domain name, not localhost or a .local, .internal or .localhost name",
    });
    expect(Object.keys(domain({ domain_name: "mail.example.com", description: "x".repeat(501) }))).toEqual(["description"]);
  });

  it("checks the body the form sends, not its raw values", () => {
    const invite = contractErrors(CreateInviteBody, (v: { email: string; role: string | null }) => ({
      email: v.email.trim(),
      org_role: v.role ?? "",
    }));
    expect(invite({ email: " qa@example.com ", role: "member" })).toEqual({});
    expect(Object.keys(invite({ email: "not an address", role: "member" }))).toEqual(["email"]);
  });
});
