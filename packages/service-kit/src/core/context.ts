import { AsyncLocalStorage } from "node:async_hooks";

/** What every log line of one request (or one consumed event) carries. */
export interface RequestContext {
  request_id?: string;
  trace_id?: string;
  user_id?: string;
  org_id?: string;
  event_id?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...ctx }, fn);
}

export function currentContext(): RequestContext {
  return storage.getStore() ?? {};
}

/** Adds fields to the current context (e.g. user id once authenticated). */
export function enrichContext(fields: RequestContext): void {
  const store = storage.getStore();
  if (store) Object.assign(store, fields);
}
