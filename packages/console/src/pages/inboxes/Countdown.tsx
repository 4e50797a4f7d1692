import { Badge, Tooltip } from "@mantine/core";
import { useAbsolute, useNow } from "../../components";
import { humanDuration } from "../../lib/duration";

/**
 * How long an inbox has left, ticking every second; the absolute expiry on hover (formatted only
 * then: the label's component renders when the tooltip opens, so a list's rows do not format it).
 */
export function Countdown({ expiresAt, isActive = true }: { expiresAt: string; isActive?: boolean }) {
  const now = useNow(1000);
  const left = new Date(expiresAt).getTime() - now;
  if (!isActive || left <= 0) return <ExpiredBadge expiresAt={expiresAt} />;
  return (
    <Tooltip label={<AbsoluteTime prefix="Expires" iso={expiresAt} />} withArrow>
      <Badge
        color={left < 60_000 ? "red.9" : left < 300_000 ? "orange.9" : "teal.9"}
        variant="filled"
        tt="none"
        data-testid="countdown"
        tabIndex={0}
      >
        <time dateTime={expiresAt}>{humanDuration(left)} left</time>
      </Badge>
    </Tooltip>
  );
}

function AbsoluteTime({ prefix, iso }: { prefix: string; iso: string }) {
  const absolute = useAbsolute();
  return `${prefix} ${absolute(iso)}`;
}

function ExpiredBadge({ expiresAt }: { expiresAt: string }) {
  const absolute = useAbsolute();
  return (
    <Badge color="gray.7" variant="filled" tt="none" title={`Expired ${absolute(expiresAt)}`} data-testid="countdown" data-expired="true">
      Expired
    </Badge>
  );
}
