import {
  attemptVerdict,
  firstRefused,
  recipientAllowed,
  replyRecipients,
  replyReferences,
  replySubject,
  resentHeaders,
  retryDelayMs,
} from "./outbound-rules";

describe("outbound rules (extensions 10)", () => {
  it("when a recipient is matched against the allowed list, then an address, @domain and *.domain match as documented", () => {
    const allowed = ["qa@example.com", "@partner.test", "*.corp.test"];
    expect(recipientAllowed("QA@Example.com", allowed)).toBe(true);
    expect(recipientAllowed("other@example.com", allowed)).toBe(false);
    expect(recipientAllowed("anyone@partner.test", allowed)).toBe(true);
    expect(recipientAllowed("anyone@sub.partner.test", allowed)).toBe(false);
    expect(recipientAllowed("a@eu.corp.test", allowed)).toBe(true);
    expect(recipientAllowed("a@corp.test", allowed)).toBe(false);
    expect(recipientAllowed("a@evilcorp.test", allowed)).toBe(false);
    expect(recipientAllowed("a@example.com", [])).toBe(false);
  });

  it("when recipients are checked, then BurnBox's own inboxes pass and the first other one outside the list is named", () => {
    const local = new Set(["b@burnbox.test"]);
    expect(firstRefused(["B@burnbox.test", "x@partner.test"], local, ["@partner.test"])).toBeNull();
    expect(firstRefused(["b@burnbox.test", "x@elsewhere.test", "y@elsewhere.test"], local, [])).toBe("x@elsewhere.test");
  });

  it("when a reply's subject is made, then Re: is added once", () => {
    expect(replySubject("Hello")).toBe("Re: Hello");
    expect(replySubject("Re: Hello")).toBe("Re: Hello");
    expect(replySubject("RE : Hello")).toBe("RE : Hello");
    expect(replySubject("")).toBe("Re: ");
  });

  it("when a reply's References are made, then the parent's chain ends with its Message-ID", () => {
    expect(replyReferences({ messageId: "<c@x>", references: "<a@x> <b@x>", inReplyTo: "<b@x>" })).toBe("<a@x> <b@x> <c@x>");
    expect(replyReferences({ messageId: "<c@x>", references: null, inReplyTo: "<b@x>" })).toBe("<b@x> <c@x>");
    expect(replyReferences({ messageId: "<c@x>", references: null, inReplyTo: null })).toBe("<c@x>");
    expect(replyReferences({ messageId: null, references: null, inReplyTo: null })).toBeNull();
  });

  it("when a reply's recipients are made, then Reply-To wins over From and reply_all adds the others but the inbox", () => {
    const parent = {
      replyTo: ["help@x.test"],
      from: ["alice@x.test"],
      to: ["me@bb.test", "bob@x.test"],
      cc: ["carol@x.test", "help@x.test"],
    };
    expect(replyRecipients(parent, "me@bb.test", false)).toEqual({ to: ["help@x.test"], cc: [] });
    expect(replyRecipients({ ...parent, replyTo: [] }, "me@bb.test", false)).toEqual({ to: ["alice@x.test"], cc: [] });
    expect(replyRecipients(parent, "ME@bb.test", true)).toEqual({ to: ["help@x.test", "bob@x.test"], cc: ["carol@x.test"] });
  });

  it("when attempts fail, then spec 6.3's delays apply and a 5xx ends at once", () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([0, 5000, 25000]);
    expect(attemptVerdict(250, 1, 3)).toBe("sent");
    expect(attemptVerdict(550, 1, 3)).toBe("failed");
    expect(attemptVerdict(451, 1, 3)).toBe("retry");
    expect(attemptVerdict(null, 2, 3)).toBe("retry");
    expect(attemptVerdict(null, 3, 3)).toBe("failed");
  });

  it("when a message is released, then the Resent-* block comes in RFC 5322's order, CRLF-terminated", () => {
    const block = resentHeaders({
      from: "a@bb.test",
      to: ["x@y.test", "z@y.test"],
      date: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
      messageId: "<m@bb.test>",
    });
    expect(block).toBe(
      "Resent-From: a@bb.test\r\nResent-To: x@y.test, z@y.test\r\nResent-Date: Fri, 02 Jan 2026 03:04:05 +0000\r\nResent-Message-ID: <m@bb.test>\r\n",
    );
  });
});
