import { authenticationSummaryOf } from "@burnbox/contracts";
import { fromDomainIn, resultOf, signaturesIn, spfDomainOf, temperrorVerdicts, verdictsOf, type CheckOutcome } from "./verdicts";

const passing: CheckOutcome = {
  spf: { domain: "mail.example.org", status: { result: "pass" } },
  dkim: {
    results: [
      { signingDomain: "example.org", selector: "s1", status: { result: "pass" } },
      { signingDomain: "esp.example.net", selector: "k2", status: { result: "neutral", comment: "body hash did not verify" } },
    ],
  },
  dmarc: { status: { result: "pass", header: { from: "example.org", d: "example.org" } }, p: "reject", sp: "quarantine" },
  arc: { status: { result: "none" } },
};

describe("verdictsOf", () => {
  it("when every check ran, then each verdict keeps its RFC 8601 word and the DKIM entries their order", () => {
    expect(verdictsOf(passing, "example.org")).toEqual({
      spf: { result: "pass", domain: "mail.example.org" },
      dkim: [
        { result: "pass", domain: "example.org", selector: "s1" },
        { result: "neutral", domain: "esp.example.net", selector: "k2" },
      ],
      dmarc: { result: "pass", policy: "reject", domain: "example.org" },
      arc: { result: "none" },
    });
  });

  it("when the message is unsigned, then the library's lone 'none' entry without a signing domain gives no DKIM entry", () => {
    const unsigned: CheckOutcome = { ...passing, dkim: { results: [{ status: { result: "none", comment: "message not signed" } }] } };
    expect(verdictsOf(unsigned, "example.org").dkim).toEqual([]);
  });

  it("when the From domain is a subdomain that inherits its organization's record, then the policy is its sp=", () => {
    const sub: CheckOutcome = {
      ...passing,
      dmarc: { status: { result: "fail", header: { from: "news.example.org", d: "example.org" } }, p: "reject", sp: "quarantine" },
    };
    expect(verdictsOf(sub, "news.example.org").dmarc).toEqual({ result: "fail", policy: "quarantine", domain: "news.example.org" });
  });

  it("when the domain publishes no DMARC record, then the policy is none and the result none", () => {
    const none: CheckOutcome = { ...passing, dmarc: { status: { result: "none", header: { from: "example.org" } } } };
    expect(verdictsOf(none, "example.org").dmarc).toEqual({ result: "none", policy: "none", domain: "example.org" });
  });

  it("when DMARC could not run (no single From address), then it is none for the From domain the caller found, or null", () => {
    expect(verdictsOf({ ...passing, dmarc: false }, null).dmarc).toEqual({ result: "none", policy: "none", domain: null });
  });

  it("when a lookup failed, then the words temperror and permerror stay as they are", () => {
    const failing: CheckOutcome = {
      spf: { domain: "example.org", status: { result: "temperror" } },
      dkim: { results: [{ signingDomain: "example.org", selector: "s1", status: { result: "permerror" } }] },
      dmarc: { status: { result: "temperror", header: { from: "example.org" } } },
      arc: false,
    };
    expect(verdictsOf(failing, "example.org")).toEqual({
      spf: { result: "temperror", domain: "example.org" },
      dkim: [{ result: "permerror", domain: "example.org", selector: "s1" }],
      dmarc: { result: "temperror", policy: "none", domain: "example.org" },
      arc: { result: "none" },
    });
  });

  it("when DMARC passes or fails, then the summary says so; any other verdict, or none stored, summarizes as none", () => {
    expect(authenticationSummaryOf(verdictsOf(passing, "example.org"))).toBe("pass");
    const failed = verdictsOf(
      { ...passing, dmarc: { status: { result: "fail", header: { from: "example.org", d: "example.org" } }, p: "reject" } },
      null,
    );
    expect(authenticationSummaryOf(failed)).toBe("fail");
    expect(authenticationSummaryOf(temperrorVerdicts({ signatures: [], fromDomain: null, spfDomain: null }))).toBe("none");
    expect(authenticationSummaryOf(null)).toBe("none");
  });
});

describe("resultOf", () => {
  it("when the library says a word outside RFC 8601's list, then it is permerror, never a pass; nothing is none", () => {
    expect(resultOf("PASS")).toBe("pass");
    expect(resultOf("policy")).toBe("policy");
    expect(resultOf("hardfail")).toBe("permerror");
    expect(resultOf(undefined)).toBe("none");
  });
});

const raw = (headers: string) => Buffer.from(`${headers}\r\n\r\nbody\r\nDKIM-Signature: d=body.example; s=no\r\n`);

describe("what the checks read from the message itself when they ran out of time", () => {
  it("when a message carries DKIM signatures, then each is named by its folded d= and s= tags, in order, and the body is not read", () => {
    const message = raw(
      [
        "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed;",
        " d=Example.ORG; s=s1;",
        "\th=from:to; bh=abc=; b=def=",
        "From: Alice <alice@example.org>",
        "dkim-signature: v=1; d=esp.example.net; s=k2; b=x",
      ].join("\r\n"),
    );
    expect(signaturesIn(message)).toEqual([
      { domain: "example.org", selector: "s1" },
      { domain: "esp.example.net", selector: "k2" },
    ]);
    expect(temperrorVerdicts({ signatures: signaturesIn(message), fromDomain: fromDomainIn(message), spfDomain: "example.org" })).toEqual({
      spf: { result: "temperror", domain: "example.org" },
      dkim: [
        { result: "temperror", domain: "example.org", selector: "s1" },
        { result: "temperror", domain: "esp.example.net", selector: "k2" },
      ],
      dmarc: { result: "temperror", policy: "none", domain: "example.org" },
      arc: { result: "temperror" },
    });
  });

  it("when the From header holds one address, then its domain is DMARC's; none or several give null", () => {
    expect(fromDomainIn(raw('From: "Bob, Jr." <bob@Mail.Example.com>'))).toBe("mail.example.com");
    expect(fromDomainIn(raw("From: a@x.test, b@y.test"))).toBeNull();
    expect(fromDomainIn(raw("Subject: no from"))).toBeNull();
  });

  it("when the sender is null, then SPF's domain is the HELO name's, unless the HELO is an address literal", () => {
    expect(spfDomainOf("bounce@Mail.Example.org", "mx.example.net")).toBe("mail.example.org");
    expect(spfDomainOf("", "mx.example.net")).toBe("mx.example.net");
    expect(spfDomainOf("", "[192.0.2.1]")).toBeNull();
    expect(spfDomainOf("", null)).toBeNull();
  });
});
