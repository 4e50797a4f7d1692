// The header's notifications bell: the unread count, kept live over /ws/notifications.
import { ActionIcon, Indicator, Tooltip, VisuallyHidden } from "@mantine/core";
import { IconBell, IconBellOff } from "@tabler/icons-react";
import { Link } from "react-router";
import { useNotificationStream } from "./live";
import { useUnreadCount } from "./api";

export default function Bell() {
  const live = useNotificationStream();
  const count = useUnreadCount();
  const n = count.data?.total ?? 0;
  const label = `Notifications, ${n} unread`;
  const state =
    live === "live" ? "Live updates on" : live === "connecting" ? "Connecting for live updates…" : "Reconnecting for live updates…";
  return (
    <>
      <Tooltip label={`${label}. ${state}`} withArrow>
        <Indicator label={<span aria-hidden>{n > 99 ? "99+" : n}</span>} size={18} offset={6} color="red" disabled={n === 0}>
          <ActionIcon
            component={Link}
            to="/notifications"
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={label}
            aria-describedby="bell-live-state"
          >
            {live === "live" ? <IconBell size={20} stroke={1.5} /> : <IconBellOff size={20} stroke={1.5} />}
          </ActionIcon>
        </Indicator>
      </Tooltip>
      <VisuallyHidden id="bell-live-state">{state}</VisuallyHidden>
    </>
  );
}
