import type { NewEmail } from "./email.repository";
import { outcomesOf, receiveParams, type ReceivedEmail } from "./intake.repository";

const scope = { orgId: "o", teamId: "t" };
const email = (id: string, inboxId: string, attachments: NewEmail["attachments"] = []): NewEmail => ({
  id,
  inboxId,
  messageId: null,
  fromAddress: "a@example.org",
  toAddress: `to@${inboxId}`,
  subject: "s",
  snippet: "",
  bodyText: null,
  bodyHtml: null,
  headers: { subject: "s" },
  extracted: { codes: [], links: [{ url: `https://x.test/${id}`, text: "", kind: "other" }] },
  authentication:
    id === "e1"
      ? {
          spf: { result: "pass", domain: "example.org" },
          dkim: [{ result: "pass", domain: "example.org", selector: "s1" }],
          dmarc: { result: "pass", policy: "reject", domain: "example.org" },
          arc: { result: "none" },
        }
      : null,
  sizeBytes: 10,
  rawKey: `${inboxId}/${id}/message.eml`,
  receivedAt: new Date("2026-11-23T00:00:00.000Z"),
  attachments,
});
const received = (e: NewEmail): ReceivedEmail => ({
  scope,
  email: e,
  outbox: { id: `ev-${e.id}`, subject: "subj", payload: { id: `ev-${e.id}` } },
});

describe("the intake's batched statement", () => {
  const file = { id: "f1", filename: "a.txt", contentType: "text/plain", sizeBytes: 3, storageKey: "i2/e2/f1" };
  const messages = [[received(email("e1", "i1"))], [received(email("e2", "i2", [file])), received(email("e3", "i3"))]];

  it("when messages are batched, then each email row, attachment row and outbox row is one array element, tagged with its message", () => {
    const p = receiveParams(messages);
    expect(p).toHaveLength(33);
    expect(p[0]).toEqual([0, 1, 1]); // message index of each email
    expect(p[1]).toEqual(["e1", "e2", "e3"]);
    expect(p[12]).toEqual(['{"subject":"s"}', '{"subject":"s"}', '{"subject":"s"}']);
    expect(p[14]).toEqual([false, true, false]); // has_attachments
    expect(p[16]).toEqual(["2026-11-23T00:00:00.000Z", "2026-11-23T00:00:00.000Z", "2026-11-23T00:00:00.000Z"]);
    expect(p.slice(17, 23)).toEqual([["f1"], ["e2"], ["a.txt"], ["text/plain"], [3], ["i2/e2/f1"]]);
    expect(p.slice(23, 27)).toEqual([
      ["ev-e1", "ev-e2", "ev-e3"],
      ["e1", "e2", "e3"],
      ["subj", "subj", "subj"],
      ['{"id":"ev-e1"}', '{"id":"ev-e2"}', '{"id":"ev-e3"}'],
    ]);
    // $28: each email's codes and links, as JSON
    expect(p[27]).toEqual(
      ["e1", "e2", "e3"].map((id) => JSON.stringify({ codes: [], links: [{ url: `https://x.test/${id}`, text: "", kind: "other" }] })),
    );
    // $29, $30: the SMTP transcripts, of the emails that have one
    expect(p.slice(28, 30)).toEqual([[], []]);
    const withTranscripts = receiveParams([[{ ...received(email("e4", "i4")), transcript: '{"ip":"::1"}' }, received(email("e5", "i5"))]]);
    expect(withTranscripts.slice(28, 30)).toEqual([["e4"], ['{"ip":"::1"}']]);
    // $31: each email's authentication verdicts as JSON, null (SQL NULL) when not checked
    expect(JSON.parse((p[30] as string[])[0]!)).toMatchObject({ dmarc: { result: "pass", policy: "reject" } });
    expect((p[30] as unknown[]).slice(1)).toEqual([null, null]);
    // $32, $33: the spam verdict and its score, null (SQL NULL) when the message was not scored
    expect(p.slice(31, 33)).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
  });

  it("when an email of a message was not stored, then that whole message is refused and the others are not", () => {
    const outcomes = outcomesOf(messages, { stored: new Set(["e1"]), gone: new Set(["i3"]) });
    expect(outcomes[0]).toBeNull();
    expect(outcomes[1]?.message).toBe("inbox i3 no longer receives mail");
    expect(outcomesOf(messages, { stored: new Set(["e1", "e2", "e3"]), gone: new Set() })).toEqual([null, null]);
  });
});
