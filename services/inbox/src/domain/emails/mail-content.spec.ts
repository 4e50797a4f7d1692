import { simpleParser } from "mailparser";
import { flatHeaders, hasOwnText, isExecutable, sanitizeEmailHtml, snippetOf, storableHeaders, storableText } from "./mail-content";

describe("isExecutable", () => {
  it("when the file name has an executable extension (any case, trailing blanks), then it is dropped", () => {
    expect(isExecutable("setup.EXE", "application/octet-stream")).toBe(true);
    expect(isExecutable("run.sh ", "text/plain")).toBe(true);
  });

  it("when the content type says executable, then it is dropped whatever the name", () => {
    expect(isExecutable("invoice.pdf", "application/x-msdownload")).toBe(true);
  });

  it("when it is a document, then it is kept, even with an executable word inside the name", () => {
    expect(isExecutable("report.txt", "text/plain")).toBe(false);
    expect(isExecutable("exe-notes.pdf", "application/pdf")).toBe(false);
  });
});

describe("sanitizeEmailHtml", () => {
  it("when mail HTML carries scripts, handlers or javascript links, then they are removed and the text kept", () => {
    const out = sanitizeEmailHtml('<p onclick="steal()">Code <b>42</b></p><script>alert(1)</script><a href="javascript:alert(1)">x</a>');
    expect(out).toContain("<b>42</b>");
    expect(out).not.toMatch(/script|onclick|javascript/);
  });

  it("when a link is kept, then it opens in a new tab without referrer or opener", () => {
    expect(sanitizeEmailHtml('<a href="https://example.org">site</a>')).toBe(
      '<a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">site</a>',
    );
  });

  it("when an image is inline (data: or cid:), then it stays", () => {
    expect(sanitizeEmailHtml('<img src="cid:logo" alt="logo">')).toContain('src="cid:logo"');
  });
});

describe("snippetOf", () => {
  it("when the text spans lines and blanks, then the preview is one line of at most 200 characters", () => {
    expect(snippetOf("  Your code\n\n is\t42  ")).toBe("Your code is 42");
    expect(snippetOf("x".repeat(300))).toHaveLength(200);
  });

  it("when there is no text part, then the preview is empty", () => {
    expect(snippetOf(null)).toBe("");
  });
});

describe("flatHeaders", () => {
  it("when a header is folded or repeated, then it is one line, repeats joined with a comma", () => {
    const headers = flatHeaders([
      { key: "subject", line: "Subject: a long\r\n  subject" },
      { key: "received", line: "Received: from a" },
      { key: "received", line: "Received: from b" },
    ]);
    expect(headers).toEqual({ subject: "a long subject", received: "from a, from b" });
  });
});

describe("storableText", () => {
  it("when text holds NULs or unpaired surrogates, then NULs are dropped and lone surrogates become U+FFFD; paired ones stay", () => {
    expect(storableText("a\u0000b\u0000")).toBe("ab");
    expect(storableText("x\ud800y\udc00")).toBe("x\ufffdy\ufffd");
    expect(storableText("ok \u{1F600}")).toBe("ok \u{1F600}");
  });

  it("when headers hold a NUL in a name or value, then both are made storable", () => {
    expect(storableHeaders({ "x-a\u0000": "v\u0000" })).toEqual({ "x-a": "v" });
  });
});

describe("hasOwnText", () => {
  // parsed as the intake parses them
  const parse = (headers: string[], body: string) =>
    simpleParser(Buffer.from([...headers, "", body].join("\r\n")), { skipImageLinks: true, skipTextToHtml: true });
  const part = (b: string, type: string, body: string) => [`--${b}`, `Content-Type: ${type}`, "", body].join("\r\n");

  it("when the mail's only part is HTML, then the text mailparser renders from it is not the mail's own", async () => {
    const mail = await parse(["Subject: s", "Content-Type: text/html; charset=utf-8"], '<h1>Hi</h1><a href="https://x.test/a">go</a>');
    expect(mail.text).toContain("[https://x.test/a]"); // the rendering: URLs in brackets
    expect(hasOwnText(mail)).toBe(false);
  });

  it("when the mail is plain text, or has a text part beside its HTML, then its text is its own", async () => {
    expect(hasOwnText(await parse(["Subject: s"], "no content type: text/plain"))).toBe(true);
    expect(hasOwnText(await parse(["Subject: s", "Content-Type: TEXT/PLAIN"], "hello"))).toBe(true);
    const alt = await parse(
      ["Subject: s", 'Content-Type: multipart/alternative; boundary="b"'],
      [part("b", "text/plain", "the text"), part("b", "text/html", "<p>the html</p>"), "--b--"].join("\r\n"),
    );
    expect([alt.text?.trim(), hasOwnText(alt)]).toEqual(["the text", true]);
  });

  it("when the HTML sits below a multipart with no text part, then there is no text at all", async () => {
    const related = await parse(
      ["Subject: s", 'Content-Type: multipart/related; boundary="b"'],
      [part("b", "text/html", "<p>the html</p>"), "--b--"].join("\r\n"),
    );
    expect([related.text, hasOwnText(related)]).toEqual([undefined, false]);
  });
});
