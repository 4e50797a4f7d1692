// Compile-time checks of `defineRoutes` (tsc --noEmit type-checks this file; it never runs).
// Each @ts-expect-error fails the type check if the literal types of a contract get widened.
import { z } from "../zod";
import { defineRoutes } from "./route";

const routes = defineRoutes({ service: "inbox", tag: "Things" }, [
  {
    operationId: "getThing",
    method: "get",
    path: "/things/{id}",
    auth: "user",
    summary: "s",
    request: { params: z.object({ id: z.string() }) },
    responses: { 200: { description: "ok" } },
  },
  {
    operationId: "createThing",
    method: "post",
    path: "/things",
    auth: "public",
    tag: "Other",
    summary: "s",
    request: { body: z.object({ name: z.string() }) },
    responses: { 201: { description: "created" } },
  },
] as const);

export const id: "getThing" = routes[0].operationId;
// @ts-expect-error the operationId stays the literal of its route, not `string`
export const wrongId: "createThing" = routes[0].operationId;

export const service: "inbox" = routes[1].service;
// @ts-expect-error the service is the literal of the file's header, not every ServiceName
export const wrongService: "identity" = routes[1].service;

// @ts-expect-error a tuple of two routes has no third
export const third = routes[2];

/** What a handler of createThing receives as body: the schema's own type, not `unknown`. */
type CreateThingBody = z.output<(typeof routes)[1]["request"]["body"]>;
export const body: CreateThingBody = { name: "a" };
// @ts-expect-error the body schema keeps its type, so a wrong field is caught
export const wrongBody: CreateThingBody = { nickname: "a" };

// @ts-expect-error a service outside SERVICES is refused
defineRoutes({ service: "billing", tag: "X" }, []);
