import { contractErrors } from "../../../lib/contract-form";
import { ReleaseEmailBody, ReplyEmailBody } from "@burnbox/contracts/src/inbox/outbound.schemas";
import { bodyParts, listError, optionalText, outboundErrorTitle, splitAddresses } from "./outbound-form";

/** The shape of the SDK's BurnBoxError that the heading reads. */
const apiError = (status: number, message: string) => Object.assign(new Error(message), { status });

describe("the mail-out forms", () => {
  it("gives the text and HTML parts that were typed, and leaves out a blank one", () => {
    expect(bodyParts({ text: "hi", html: "  " })).toEqual({ text: "hi" });
    expect(bodyParts({ text: "", html: "<p>hi</p>" })).toEqual({ html: "<p>hi</p>" });
    expect(bodyParts({ text: " ", html: "" })).toEqual({});
  });

  it("splits typed addresses on commas, semicolons and spaces", () => {
    expect(splitAddresses(" a@x.test, b@y.test;c@z.test\n d@w.test ,")).toEqual(["a@x.test", "b@y.test", "c@z.test", "d@w.test"]);
    expect(splitAddresses("  ")).toEqual([]);
  });
  it("leaves a blank body field out", () => {
    expect(optionalText("  ")).toBeUndefined();
    expect(optionalText("hi")).toBe("hi");
  });
  it("shows the contract's error of one address under the one field, naming which", () => {
    const errors = contractErrors(ReleaseEmailBody, (v: { to: string }) => ({ to: splitAddresses(v.to) }));
    expect(listError(errors({ to: "ok@example.com, not-an-address" }), "to")).toBe("Address 2: must be an email address");
    expect(listError(errors({ to: "" }), "to")).toBeDefined();
    expect(listError(errors({ to: "ok@example.com" }), "to")).toBeUndefined();
  });
  it("refuses a reply with neither text nor html, as the API would", () => {
    const errors = contractErrors(ReplyEmailBody)({ reply_all: false });
    expect(errors.text).toBe("at least one of text and html");
  });
  it("heads a refused send by what went wrong", () => {
    expect(outboundErrorTitle(apiError(403, "recipient not allowed: x@example.com"))).toBe("Recipient not allowed");
    expect(outboundErrorTitle(apiError(429, "rate limit exceeded"))).toBe("Hourly sending limit reached");
    expect(outboundErrorTitle(apiError(403, "insufficient permissions"))).toBeUndefined();
  });
});
