import { Anchor, Text } from "@mantine/core";
import { Fragment } from "react";
import { Link } from "react-router";

/** `path`, keeping where the user was headed (`?next=`) when there is such a place. */
export const withNext = (path: string, next: string | null | undefined): string =>
  next ? `${path}?next=${encodeURIComponent(next)}` : path;

/** The links under a sign-in page's form: small, centred, apart by a dot, after an optional lead-in. */
export function AuthFooter({ lead, links }: { lead?: string; links: readonly { to: string; label: string }[] }) {
  return (
    <Text size="sm" ta="center">
      {lead ? `${lead} ` : null}
      {links.map((l, i) => (
        <Fragment key={l.to}>
          {i > 0 ? " · " : null}
          <Anchor component={Link} to={l.to}>
            {l.label}
          </Anchor>
        </Fragment>
      ))}
    </Text>
  );
}
