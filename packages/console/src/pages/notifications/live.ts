import { useQueryClient } from "@tanstack/react-query";
import { useLiveSocket, type LiveState } from "../../api/live-socket";
import { parseFrame } from "./frames";
import { notificationKeys } from "./keys";

/**
 * Keeps one socket on `/ws/notifications` while mounted; each pushed notification refreshes the
 * unread count and the lists. Every open refetches them too, and a drop reconnects with backoff,
 * so nothing written while no socket was open is missed.
 */
export function useNotificationStream(): LiveState {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  return useLiveSocket("/ws/notifications", {
    // what was written while no socket was open (before the first one, too) shows now
    onOpen: refresh,
    onMessage: (data) => {
      if (parseFrame(data)) refresh();
    },
  });
}
