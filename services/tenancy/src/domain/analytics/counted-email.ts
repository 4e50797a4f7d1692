import { EmailReceivedData, EmailReceivedEvent } from "@burnbox/contracts";
import type { z } from "zod";

/**
 * The part of an `email.received` event the count reads, all its consumer checks: the summary,
 * extracted codes and links and authentication results the event also carries are not read here,
 * so not checked again at this hop (issue 39).
 */
export const CountedEmail = EmailReceivedEvent.pick({ id: true, type: true, org_id: true }).extend({
  data: EmailReceivedData.pick({ team_id: true, received_at: true, size_bytes: true, to: true, from: true }).extend({
    // events from before size_bytes had it only in the summary
    summary: EmailReceivedData.shape.summary.unwrap().pick({ size_bytes: true }).optional(),
  }),
});
export type CountedEmail = z.infer<typeof CountedEmail>;
