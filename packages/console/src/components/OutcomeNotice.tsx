import { List } from "@mantine/core";
import { Notice } from "./Notice";

/** What a bulk action did: a line, and under it one line per item it passed over or failed on. */
export interface Outcome {
  text: string;
  details: string[];
}

/** The `<Notice>` of an `Outcome` (nothing while there is none), until dismissed. */
export function OutcomeNotice({ outcome, onClose }: { outcome: Outcome | null; onClose: () => void }) {
  if (!outcome) return null;
  return (
    <Notice onClose={onClose} mb="sm" title={outcome.text}>
      {outcome.details.length > 0 && (
        <List size="sm">
          {outcome.details.map((d) => (
            <List.Item key={d}>{d}</List.Item>
          ))}
        </List>
      )}
    </Notice>
  );
}
