// The header's notifications bell (the shell renders this file's default export, lazily).
// Placeholder: console-team replaces it with the live unread count over /ws/notifications.
export default function Bell() {
  return null;
}
