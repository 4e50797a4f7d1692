/** A command line that cannot be run as given: exit 64 with the message. */
export class UsageError extends Error {}
