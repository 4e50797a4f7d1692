import { z } from "../zod";

/** Left open on purpose: describing the OpenAPI document inside itself adds nothing for clients. */
export const OpenApiDocumentBody = z.record(z.string(), z.unknown());
