import { simpleParser } from "mailparser";
import type { SnapshotLink, SnapshotMask } from "@burnbox/contracts";
import type { TeamScope } from "@burnbox/service-kit/data";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { errors } from "@burnbox/service-kit/runtime";
import { authorize } from "@burnbox/service-kit/security";
import type { Permission } from "@burnbox/contracts";
import type { InboxDeps } from "../deps";
import { readHtml } from "../emails/extraction/html-text";
import { hasOwnText } from "../emails/mail-content";
import { compilePattern } from "../emails/wait/wait-matcher";
import { authorizeInbox } from "../inboxes/inbox-access";
import { PLACEHOLDER, maskHtml, masker, type CustomMask } from "./masks";
import { renderMail } from "../render-mail";
import type { MailRenderer } from "../renderer";
import { SNAPSHOT_RENDERS, renderFile } from "./renders";

/** An email as a snapshot sees it: every part masked. */
export interface MaskedMail {
  subject: string;
  from: string;
  text: string;
  html: string | null;
  links: SnapshotLink[];
}

/** The team of the path, once the caller may act on it with `permission`; 404 for a team not of the path's org. */
export async function teamOfPath(
  deps: InboxDeps,
  ctx: RequestCtx,
  input: { orgId: string; teamId: string },
  permission: Permission,
): Promise<TeamScope> {
  await authorize(
    deps.nc,
    deps.config.nats.namespace,
    { actor: ctx.actor, org_id: input.orgId, team_id: input.teamId, permission },
    "team",
  );
  return { orgId: input.orgId, teamId: input.teamId };
}

/** The custom masks compiled by RE2; a bad pattern is a 400 naming its index. */
export function compileMasks(masks: readonly SnapshotMask[]): CustomMask[] {
  return masks.map((m, i) => ({ re: compilePattern(m.pattern, `masks[${i}].pattern`), replace: m.replace ?? PLACEHOLDER.custom }));
}

/**
 * An email of `team` the caller may read, masked: 404 "email" for an unknown email, one the caller
 * may not see, and one of another team (a snapshot is made from and compared with its own team's mail).
 */
export async function readMaskedEmail(
  deps: InboxDeps,
  ctx: RequestCtx,
  emailId: string,
  masks: readonly SnapshotMask[],
  team?: TeamScope,
): Promise<{ scope: TeamScope; mail: MaskedMail }> {
  const located = await deps.data.repos.emails.locate(emailId);
  if (!located) throw errors.notFound("email");
  const scope = await authorizeInbox(deps, ctx, located.inbox, "team.emails.view", "email");
  if (team && (team.orgId !== scope.orgId || team.teamId !== scope.teamId)) throw errors.notFound("email");
  const custom = compileMasks(masks);
  const email = await deps.data.repos.emails.get(scope, emailId);
  const file = await deps.data.repos.emails.rawMessage(scope, emailId);
  if (!email || !file) throw errors.notFound("email");
  // the HTML as it was sent (the stored copy is sanitized and has lost its styles): what is rendered
  const parsed = await simpleParser(await deps.storage.get(file.key), { skipImageLinks: true, skipTextToHtml: true });
  const html = typeof parsed.html === "string" && parsed.html.trim() !== "" ? parsed.html : null;
  const text = hasOwnText(parsed) ? (parsed.text ?? "") : html ? readHtml(html).text : (parsed.text ?? "");
  const mask = masker({ codes: email.extracted.codes.map((c) => c.value), custom });
  const from = parsed.from?.text ?? email.from_address;
  return {
    scope,
    mail: {
      subject: mask(parsed.subject ?? email.subject ?? ""),
      from: mask(from),
      text: mask(text),
      html: html ? maskHtml(html, mask) : null,
      links: email.extracted.links.map((l) => ({ url: mask(l.url), text: mask(l.text), kind: l.kind })),
    },
  };
}

/** Renders a masked mail at every width and scheme and stores the pictures under `folder`; returns them. */
export async function renderAll(
  renderer: MailRenderer,
  mail: MaskedMail,
): Promise<{ width: (typeof SNAPSHOT_RENDERS)[number]["width"]; scheme: (typeof SNAPSHOT_RENDERS)[number]["scheme"]; png: Buffer }[]> {
  const out = [];
  // one at a time: the renderer bounds its own concurrency, and a comparison is one caller's test
  for (const r of SNAPSHOT_RENDERS)
    out.push({
      ...r,
      png: await renderMail(renderer, { ...(mail.html !== null ? { html: mail.html } : { text: mail.text }), ...r, images: "blocked" }),
    });
  return out;
}

export async function storeRenders(
  deps: InboxDeps,
  folder: string,
  kind: "baseline" | "actual" | "diff",
  renders: readonly { width: number; scheme: string; png: Buffer }[],
) {
  await Promise.all(renders.map((r) => deps.storage.put(`${folder}/${renderFile(kind, r.width, r.scheme)}`, r.png)));
}
