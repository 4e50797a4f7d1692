import { nothingExtracted, type Extracted } from "@burnbox/contracts";
import type { Logger } from "@burnbox/service-kit/runtime";
import { extract, type ExtractInput } from "./extract";

/**
 * The codes and links of a received message (extensions section 2): from the subject, the text
 * part (never mailparser's rendering of the HTML), the HTML part and the headers. Never fails the message: on an error it is empty lists, and the error is logged.
 */
export function extractedOf(logger: Logger, input: ExtractInput): Extracted {
  try {
    return extract(input);
  } catch (err) {
    logger.error({ err }, "could not extract codes and links; the email is stored without them");
    return nothingExtracted();
  }
}
