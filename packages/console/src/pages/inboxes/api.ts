// The inboxes area's server state: every call through the console's SDK client (useApi), errors as BurnBoxError.
import type {
  BurnBox,
  BurnBoxError,
  components,
  Email,
  EmailPage,
  EmailSummary,
  HtmlCheck,
  Inbox,
  InboxPage,
  InboxStream,
} from "@burnbox/sdk";
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { unwrap, useApi, useApiQuery, type ApiAnswer } from "../../api/query";
import { pageFrom } from "../../lib/page-param";
import type { SessionStore } from "../../api/session-store";
import { remembered, resolveWorkspace } from "../../api/workspace";
import { inboxKeys as keys, type InboxFilters, type InboxStatus, type MailFilters, type PreviewParams } from "./keys";
import { apiMutation, apiMutationWith, apiQueryWith } from "../../api/query";

export type SmtpBehaviour = components["schemas"]["SmtpBehaviour"];

export type MyDomain = components["schemas"]["MyDomain"];
export type { Email, EmailSummary, Inbox };
export { keys };

export const PER_PAGE = 20;

const myDomainsQuery = (bb: BurnBox) => ({
  queryKey: keys.myDomains(),
  queryFn: async (): Promise<MyDomain[]> => {
    const all: MyDomain[] = [];
    for (let page = 1; ; page++) {
      const p = await unwrap(bb.api.GET("/my/domains", { params: { query: { page, per_page: 100 } } }));
      all.push(...p.data);
      if (page >= p.total_pages) return all;
    }
  },
  staleTime: 60_000,
});

/** Every assignment of the caller's teams (all pages: a person rarely has more than a few). */
export function useMyDomains() {
  const bb = useApi();
  return useQuery<MyDomain[], BurnBoxError>(myDomainsQuery(bb));
}

const inboxListQuery = (bb: BurnBox, f: InboxFilters) => ({
  queryKey: keys.list(f),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    unwrap(
      bb.api.GET("/inboxes", {
        params: {
          query: {
            status: f.status,
            page: f.page,
            per_page: PER_PAGE,
            ...(f.q ? { q: f.q } : {}),
            ...(f.teamId ? { team_id: f.teamId } : {}),
          },
        },
        signal,
      }),
    ),
});

export function useInboxes(f: InboxFilters, enabled = true) {
  const bb = useApi();
  return useQuery<InboxPage, BurnBoxError>({ ...inboxListQuery(bb, f), enabled, placeholderData: keepPreviousData });
}

const STATUSES: InboxStatus[] = ["active", "expired", "all"];

/** The list's status filter from the URL's `status` (active unless another known one). */
export const inboxStatus = (raw: string | undefined): InboxStatus =>
  (STATUSES as string[]).includes(raw ?? "") ? (raw as InboxStatus) : "active";

/**
 * The `/inboxes` route's loader: the list the page will ask for, asked as soon as the session's
 * refresh answers (beside `/auth/me`, the workspace and the page's own chunk, not after them).
 * Never blocks the navigation; a failure here is the page's to show when it asks again.
 */
export function prefetchInboxList(queryClient: QueryClient, session: SessionStore, url: URL): null {
  const p = url.searchParams;
  const filters = (teamId: string | undefined): InboxFilters => ({
    teamId,
    status: inboxStatus(p.get("status") ?? undefined),
    q: p.get("q") ?? "",
    page: pageFrom(p),
  });
  void (async () => {
    if (!(await session.resumed())) return;
    const bb = session.client;
    const list = (teamId: string | undefined) => queryClient.prefetchQuery(inboxListQuery(bb, filters(teamId)));
    // the team chosen last time is most likely the one the shell picks again: asked at once,
    // beside the workspace's own queries (a team the user has lost is refused, and then not shown)
    const remember = remembered().teamId;
    const guesses = new Set<string | undefined>();
    const asked: Array<Promise<void>> = [];
    if (remember) {
      guesses.add(remember);
      asked.push(list(remember));
    } else {
      // a fresh profile: the page's domains (`/my/domains`, which it asks for anyway) name the
      // caller's teams in one answer, beside the org list; when they are all one team, that team's
      // list goes out while the org's teams are read (the shell's pick decides what is shown)
      asked.push(
        queryClient.fetchQuery(myDomainsQuery(bb)).then(
          (domains) => {
            const teams = new Set(domains.map((d) => d.team_id));
            const only = teams.size === 1 ? [...teams][0] : undefined;
            if (only && !guesses.has(only)) {
              guesses.add(only);
              return list(only);
            }
          },
          () => undefined,
        ), // the page asks again and shows the error
      );
    }
    const { team } = await resolveWorkspace(queryClient, bb);
    if (!guesses.has(team?.id)) {
      guesses.add(team?.id);
      asked.push(list(team?.id));
    }
    await Promise.all(asked);
  })().catch(() => undefined);
  return null;
}

export function useInbox(id: string) {
  const bb = useApi();
  return useQuery<Inbox, BurnBoxError>({
    queryKey: keys.inbox(id),
    queryFn: ({ signal }) => unwrap(bb.api.GET("/inboxes/{id}", { params: { path: { id } }, signal })),
  });
}

export function useCreateInbox() {
  const bb = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { domain_assignment_id: string; alias?: string; ttl?: string; private?: boolean }) =>
      unwrap(bb.api.POST("/inboxes", { body })),
    onSuccess: (inbox) => {
      qc.setQueryData(keys.inbox(inbox.id), inbox);
      void qc.invalidateQueries({ queryKey: keys.lists() });
    },
  });
}

export function useExtendInbox() {
  const bb = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, duration }: { id: string; duration?: string }) =>
      unwrap(bb.api.POST("/inboxes/{id}/extend", { params: { path: { id } }, body: duration ? { duration } : {} })),
    onSuccess: (inbox) => {
      qc.setQueryData(keys.inbox(inbox.id), inbox);
      void qc.invalidateQueries({ queryKey: keys.lists() });
    },
  });
}

export function useDeleteInbox() {
  const bb = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(bb.api.DELETE("/inboxes/{id}", { params: { path: { id } } })),
    onSuccess: (_r, id) => {
      qc.removeQueries({ queryKey: keys.inbox(id) });
      qc.removeQueries({ queryKey: keys.emails(id) });
      void qc.invalidateQueries({ queryKey: keys.lists() });
    },
  });
}

// ---- mail ----

export function useEmails(inboxId: string, f: MailFilters) {
  const bb = useApi();
  return useQuery<EmailPage, BurnBoxError>({
    queryKey: keys.emailPage(inboxId, f),
    queryFn: ({ signal }) =>
      unwrap(
        bb.api.GET("/inboxes/{id}/emails", {
          params: { path: { id: inboxId }, query: { page: f.page, per_page: PER_PAGE, ...(f.q ? { q: f.q } : {}) } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** The email view; `authentication` is there once the inbox service serves it (extensions section 3). */
export type EmailView = Email & { authentication?: Authentication | null };
export interface Authentication {
  spf?: { result: string; domain?: string | null };
  dkim?: Array<{ result: string; domain?: string | null; selector?: string | null }>;
  dmarc?: { result: string; policy?: string | null; domain?: string | null };
  arc?: { result: string };
}

export function useEmail(id: string) {
  const bb = useApi();
  return useQuery<EmailView, BurnBoxError>({
    queryKey: keys.email(id),
    queryFn: ({ signal }) => unwrap(bb.api.GET("/emails/{id}", { params: { path: { id } }, signal })),
  });
}

export function useRawEmail(id: string, enabled: boolean) {
  const bb = useApi();
  return useQuery<string, BurnBoxError>({
    queryKey: keys.raw(id),
    enabled,
    staleTime: Infinity,
    queryFn: ({ signal }) => unwrap(bb.api.GET("/emails/{id}/raw", { params: { path: { id } }, parseAs: "text", signal })),
  });
}

/** The attachment's bytes as a Blob (the API needs the bearer token, so a plain link would not do). */
export function useAttachmentFetcher() {
  const bb = useApi();
  return (emailId: string, aid: string): Promise<Blob> =>
    unwrap(bb.api.GET("/emails/{id}/attachments/{aid}", { params: { path: { id: emailId, aid } }, parseAs: "blob" }));
}

/** Writes a changed email (or its removal) into every cached list of its inbox and the inbox's counts. */
function patchLists(qc: QueryClient, inboxId: string, emailId: string, change: Partial<EmailSummary> | "removed") {
  qc.setQueriesData<EmailPage>({ queryKey: keys.emails(inboxId) }, (old) => {
    if (!old) return old;
    if (change === "removed") {
      const data = old.data.filter((e) => e.id !== emailId);
      return data.length === old.data.length ? old : { ...old, data, total: Math.max(0, old.total - 1) };
    }
    return { ...old, data: old.data.map((e) => (e.id === emailId ? { ...e, ...change } : e)) };
  });
}

export function useSetRead() {
  const bb = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isRead }: { id: string; inboxId: string; isRead: boolean }) =>
      unwrap(bb.api.PATCH("/emails/{id}", { params: { path: { id } }, body: { is_read: isRead } })),
    onSuccess: (email, v) => {
      qc.setQueryData<EmailView>(keys.email(v.id), (old) => (old ? { ...old, is_read: email.is_read } : old));
      patchLists(qc, v.inboxId, v.id, { is_read: email.is_read });
      void qc.invalidateQueries({ queryKey: keys.inbox(v.inboxId) });
      void qc.invalidateQueries({ queryKey: keys.lists() });
    },
  });
}

export function useDeleteEmail() {
  const bb = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; inboxId: string }) => unwrap(bb.api.DELETE("/emails/{id}", { params: { path: { id } } })),
    onSuccess: (_r, v) => {
      qc.removeQueries({ queryKey: keys.email(v.id) });
      patchLists(qc, v.inboxId, v.id, "removed");
      void qc.invalidateQueries({ queryKey: keys.emails(v.inboxId) });
      void qc.invalidateQueries({ queryKey: keys.inbox(v.inboxId) });
    },
  });
}

export function useMarkAllRead() {
  const bb = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (inboxId: string) => unwrap(bb.api.POST("/inboxes/{id}/emails/mark-all-read", { params: { path: { id: inboxId } } })),
    onSuccess: (_r, inboxId) => {
      qc.setQueriesData<EmailPage>({ queryKey: keys.emails(inboxId) }, (old) =>
        old ? { ...old, data: old.data.map((e) => ({ ...e, is_read: true })) } : old,
      );
      void qc.invalidateQueries({ queryKey: keys.inbox(inboxId) });
      void qc.invalidateQueries({ queryKey: keys.lists() });
    },
  });
}

/**
 * A mail that came over the WebSocket: at the top of the first page of the unfiltered list at
 * once (no request), every other cached page refetched, the inbox's counts bumped.
 */
export function addLiveEmail(qc: QueryClient, inboxId: string, summary: EmailSummary): void {
  qc.setQueryData<EmailPage>(keys.emailPage(inboxId, { q: "", page: 1 }), (old) => {
    if (!old || old.data.some((e) => e.id === summary.id)) return old;
    const total = old.total + 1;
    return {
      ...old,
      data: [summary, ...old.data].slice(0, old.per_page),
      total,
      total_pages: Math.max(1, Math.ceil(total / old.per_page)),
    };
  });
  void qc.invalidateQueries({
    queryKey: keys.emails(inboxId),
    predicate: (q) => {
      const f = q.queryKey[3] as MailFilters | undefined;
      return !f || f.q !== "" || f.page !== 1;
    },
  });
  qc.setQueryData<Inbox>(keys.inbox(inboxId), (old) =>
    old ? { ...old, email_count: old.email_count + 1, unread_count: old.unread_count + (summary.is_read ? 0 : 1) } : old,
  );
  void qc.invalidateQueries({ queryKey: keys.lists() });
}

/**
 * `POST /ws/ticket`, then `GET /ws/inboxes/{id}?ticket=`: opens the inbox's socket once (the SDK's
 * `stream()` with its own reconnect off, since `useInboxStream` reopens it with its back-off),
 * resuming after `lastEventId` when given. The opener keeps its identity while the session's
 * client does, so an effect that depends on it does not reopen.
 */
export function useOpenInboxStream(): (inboxId: string, lastEventId?: string) => InboxStream {
  const bb = useApi();
  return useCallback(
    (inboxId: string, lastEventId?: string) => bb.stream(inboxId, { reconnect: false, ...(lastEventId ? { lastEventId } : {}) }),
    [bb],
  );
}

/** The API's message of an error (BurnBoxError carries the envelope's `error`). */
export function messageOf(err: unknown): string {
  if (err && typeof err === "object" && "message" in err && typeof (err as Error).message === "string") return (err as Error).message;
  return String(err);
}

/** `PATCH /inboxes/{id}` */
export const useUpdateSmtpBehaviour = apiMutationWith((bb, smtp_behaviour: SmtpBehaviour | null, args: { inboxId: string }) =>
  bb.api.PATCH("/inboxes/{id}", { params: { path: { id: args.inboxId } }, body: { smtp_behaviour } }),
);

/** `GET /emails/{id}/html-check` (the HTML part against the caniemail data, extensions section 7), read while its tab is open. */
export function useHtmlCheck(emailId: string, enabled: boolean) {
  return useApiQuery<HtmlCheck>(
    keys.htmlCheck(emailId),
    (bb, signal) => bb.api.GET("/emails/{id}/html-check", { params: { path: { id: emailId } }, signal }),
    { enabled },
  );
}

/** `POST /emails/{id}/link-check`: each extracted link fetched once, on request. */
export const useLinkCheck = apiMutation((bb, emailId: string) =>
  bb.api.POST("/emails/{id}/link-check", { params: { path: { id: emailId } } }),
);

const SMTP_LOG_PER_PAGE = 20;

/** `GET /inboxes/{id}/smtp-log`: the inbox's SMTP attempts, a page at a time. */
export const useSmtpLog = apiQueryWith(
  (a: { inboxId: string; page: number }) => keys.smtpLog(a.inboxId, a.page),
  (bb, signal, { inboxId, page }) =>
    bb.api.GET("/inboxes/{id}/smtp-log", { params: { path: { id: inboxId }, query: { page, per_page: SMTP_LOG_PER_PAGE } }, signal }),
);

// ---- previews and mail out (extensions sections 12 and 10) ----

export type SpamResult = components["schemas"]["SpamResult"];
export type OutboundMessage = components["schemas"]["OutboundMessage"];
export type { PreviewParams };

/** `GET /emails/{id}/preview`: the mail rendered by the renderer, as a PNG Blob (fetched with the session's token). */
export const usePreview = apiQueryWith(
  (a: { emailId: string; params: PreviewParams }) => keys.preview(a.emailId, a.params),
  (bb, signal, { emailId, params }) =>
    bb.api.GET("/emails/{id}/preview", { params: { path: { id: emailId }, query: params }, parseAs: "blob", signal }) as Promise<
      ApiAnswer<Blob>
    >,
);

const OUTBOUND_PER_PAGE = 20;

/** `GET /inboxes/{id}/outbound`: what the inbox sent, replied or released, newest first. */
export const useOutbound = apiQueryWith(
  (a: { inboxId: string; page: number }) => keys.outboundPage(a.inboxId, a.page),
  (bb, signal, { inboxId, page }) =>
    bb.api.GET("/inboxes/{id}/outbound", { params: { path: { id: inboxId }, query: { page, per_page: OUTBOUND_PER_PAGE } }, signal }),
);

/** `POST /emails/{id}/release` */
export const useReleaseEmail = apiMutationWith((bb, body: ReleaseBody, a: { emailId: string }) =>
  bb.api.POST("/emails/{id}/release", { params: { path: { id: a.emailId } }, body }),
);

/** `POST /emails/{id}/reply` */
export const useReplyToEmail = apiMutationWith((bb, body: ReplyBody, a: { emailId: string }) =>
  bb.api.POST("/emails/{id}/reply", { params: { path: { id: a.emailId } }, body }),
);

/** `POST /inboxes/{id}/send` */
export const useSendFromInbox = apiMutationWith((bb, body: SendBody, a: { inboxId: string }) =>
  bb.api.POST("/inboxes/{id}/send", { params: { path: { id: a.inboxId } }, body }),
);

export type ReleaseBody = components["schemas"]["ReleaseEmailRequest"];
export type ReplyBody = components["schemas"]["ReplyEmailRequest"];
export type SendBody = components["schemas"]["SendEmailRequest"];
