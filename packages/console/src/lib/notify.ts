import { notifications } from "@mantine/notifications";

/** A short confirmation toast whose close button is named for screen readers. */
export function notify(message: string) {
  notifications.show({ message, closeButtonProps: { "aria-label": "Dismiss" } });
}
