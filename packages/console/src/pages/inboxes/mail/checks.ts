// The checks on a received mail (extensions section 7): the HTML part against the caniemail data, and each link fetched once.
import type { HtmlCheck, LinkCheck } from "@burnbox/sdk";
import { useApiMutation, useApiQuery } from "../../../api/query";

/** Query keys of the reader's checks; they start with the inboxes area's name, as its reader keys do. */
export const checkKeys = {
  htmlCheck: (emailId: string) => ["inboxes", "html-check", emailId] as const,
};

/** `GET /emails/{id}/html-check`, read while the HTML check tab is open. */
export function useHtmlCheck(emailId: string, enabled: boolean) {
  return useApiQuery<HtmlCheck>(
    checkKeys.htmlCheck(emailId),
    (bb, signal) => bb.api.GET("/emails/{id}/html-check", { params: { path: { id: emailId } }, signal }),
    { enabled },
  );
}

/** `POST /emails/{id}/link-check`: each extracted link fetched once, on request. */
export function useLinkCheck() {
  return useApiMutation<string, LinkCheck>((bb, emailId) => bb.api.POST("/emails/{id}/link-check", { params: { path: { id: emailId } } }));
}
