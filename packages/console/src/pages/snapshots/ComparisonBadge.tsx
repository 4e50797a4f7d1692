import { Badge } from "@mantine/core";
import type { SnapshotComparison } from "./api";

/** "Matches" or "Differs" (never colour alone: the word says it). */
export function ComparisonBadge({ comparison }: { comparison: SnapshotComparison }) {
  return (
    <Badge
      variant="filled"
      color={comparison.match ? "teal.9" : "red.9"}
      tt="none"
      data-testid="comparison-match"
      data-match={comparison.match}
    >
      {comparison.match ? "Matches" : "Differs"}
    </Badge>
  );
}
