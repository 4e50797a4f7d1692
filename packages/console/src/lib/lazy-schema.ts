import type { schemaResolver } from "@mantine/form";
import type { FormEvent } from "react";
/** A Standard Schema (zod 4 is one), as `useContractForm` takes it. */
type Schema = Parameters<typeof schemaResolver>[0];

/**
 * A contract schema loaded on demand (a dynamic `import()`), for a form on the console's first
 * page, whose chunk should not carry zod: `schema` goes to `useContractForm` as any schema does
 * (until it has loaded it accepts every value), `ready()` starts or awaits the load, and
 * `submit(handler)` is the form's `onSubmit` that waits for the schema before the form's own
 * validation runs, so nothing is sent unchecked. A failed load leaves the check to the API.
 */
export function lazySchema(load: () => Promise<Schema>) {
  let loaded: Schema | undefined;
  let loading: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (loading ??= load().then(
      (s) => {
        loaded = s;
      },
      () => {
        loading = undefined;
      },
    ));
  const schema = {
    "~standard": {
      version: 1,
      vendor: "burnbox-lazy",
      validate: (value: unknown) => (loaded ? loaded["~standard"].validate(value) : { value }),
    },
  } as Schema;
  const submit =
    (handler: () => void) =>
    (e: FormEvent): void => {
      e.preventDefault();
      void ready().then(handler);
    };
  return { schema, ready, submit };
}
