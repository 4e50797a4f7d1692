import { createLogger } from "@burnbox/service-kit/runtime";
import { extractedOf } from "./extracted-of";

describe("extractedOf", () => {
  const lines: string[] = [];
  const logger = createLogger({ service: "inbox", level: "error", destination: { write: (l: string) => void lines.push(l) } });

  it("when extraction works, then the mail's codes and links", () => {
    const got = extractedOf(logger, { subject: "Your code is 482913", text: "See https://x.test/verify", html: null, headers: {} });
    expect(got).toEqual({
      codes: [{ value: "482913", context: "Your code is 482913" }],
      links: [{ url: "https://x.test/verify", text: "", kind: "verify" }],
    });
  });

  it("when extraction throws, then the mail gets empty lists (never fails the message) and the error is logged", () => {
    const headers = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("broken headers");
        },
      },
    );
    expect(extractedOf(logger, { subject: "s", text: "t", html: null, headers })).toEqual({ codes: [], links: [] });
    expect(lines.join("")).toContain("could not extract codes and links");
  });
});
