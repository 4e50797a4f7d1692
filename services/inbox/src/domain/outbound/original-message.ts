import { simpleParser, type AddressObject } from "mailparser";
import type { TeamScope } from "@burnbox/service-kit/data";
import { errors } from "@burnbox/service-kit/runtime";
import type { InboxDeps } from "../deps";

/** A received email's stored original, exactly as the intake took it. */
export async function originalBytes(deps: InboxDeps, scope: TeamScope, emailId: string): Promise<Buffer> {
  const file = await deps.data.repos.emails.rawMessage(scope, emailId);
  if (!file) throw errors.notFound("email");
  return deps.storage.get(file.key);
}

const addresses = (a: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((o) => o.value.map((v) => v.address ?? "")).filter((x) => x !== "");

/** What a reply needs of the original: who wrote it and to whom, its subject and its place in a thread. */
export async function replyContext(raw: Buffer) {
  const mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipHtmlToText: true });
  const header = (name: string): string | null => {
    const v = mail.headers.get(name);
    return typeof v === "string" ? v : null;
  };
  const refs = mail.references;
  return {
    subject: mail.subject ?? "",
    messageId: mail.messageId ?? null,
    inReplyTo: mail.inReplyTo ?? header("in-reply-to"),
    references: Array.isArray(refs) ? refs.join(" ") : (refs ?? null),
    replyTo: addresses(mail.replyTo),
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
  };
}
