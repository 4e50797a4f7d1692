// The notifications area's server state: the query and mutation hooks its pages call (never bb.api directly).
import { apiQuery, apiQueryWith, apiMutation } from "../../api/query";
import { notificationKeys } from "./keys";
import type { ListParams } from "../../components";

/** `GET /notifications` */
export const useUnreadCount = apiQuery(notificationKeys.unreadCount(), (bb, signal) =>
  bb.api.GET("/notifications", { params: { query: { unread: true, per_page: 1 } }, signal }),
);

/** `GET /notifications` */
export const useNotifications = apiQueryWith(
  (args: { list: ListParams<"show">; listPerPage: number; listFilters: Record<"show", string | undefined>; unreadOnly: boolean }) =>
    notificationKeys.list(args.list.page, args.listPerPage, args.listFilters.show),
  (bb, signal, args) =>
    bb.api.GET("/notifications", {
      params: { query: { page: args.list.page, per_page: args.listPerPage, ...(args.unreadOnly ? { unread: true } : {}) } },
      signal,
    }),
);

/** `PATCH /notifications/{id}/read` */
export const useMarkRead = apiMutation((bb, id: string) => bb.api.PATCH("/notifications/{id}/read", { params: { path: { id } } }));

/** `DELETE /notifications/{id}` */
export const useDeleteNotification = apiMutation((bb, id: string) => bb.api.DELETE("/notifications/{id}", { params: { path: { id } } }));

/** `POST /notifications/mark-all-read` */
export const useMarkAllRead = apiMutation((bb, _: void) => bb.api.POST("/notifications/mark-all-read"));

/** `DELETE /notifications` */
export const useClearNotifications = apiMutation((bb, _: void) => bb.api.DELETE("/notifications"));
