/** Query keys of the notifications area; every one starts with "notifications". */
export const notificationKeys = {
  all: ["notifications"] as const,
  unreadCount: () => ["notifications", "unread-count"] as const,
  list: (page: number, perPage: number, show: string | undefined) => ["notifications", "list", { page, perPage, show }] as const,
};
