// Compile-time checks of `bindRoutes` (tsc --noEmit type-checks this file; it never runs).
// Each @ts-expect-error fails the type check if the binding stops catching that mistake.
import { defineRoutes, z } from "@burnbox/contracts";
import { bindRoutes, type Handlers } from "./routes";

const routes = defineRoutes({ service: "inbox", tag: "Test" }, [
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
    summary: "s",
    request: { body: z.object({ name: z.string() }) },
    responses: { 201: { description: "created" } },
  },
] as const);

export const complete: Handlers<typeof routes> = {
  getThing: async ({ params, ctx }) => ({ id: params.id, by: ctx.actor.user_id }),
  createThing: async ({ body, ctx }) => ({ name: body.name, by: ctx.actor?.user_id ?? null }),
};

// @ts-expect-error a contract route without a handler does not compile
export const missing: Handlers<typeof routes> = { getThing: async () => ({}) };

export const extra: Handlers<typeof routes> = {
  ...complete,
  // @ts-expect-error a handler without a contract route does not compile
  deleteThing: async () => undefined,
};

export const wrongInput: Handlers<typeof routes> = {
  ...complete,
  // @ts-expect-error the body is typed from the contract's schema
  createThing: async ({ body }) => body.nickname,
};

export const publicActor: Handlers<typeof routes> = {
  ...complete,
  // @ts-expect-error on a public route the actor may be null
  createThing: async ({ ctx }) => ctx.actor.user_id,
};

export const router = () => bindRoutes(routes, complete);
