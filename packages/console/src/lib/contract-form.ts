import { schemaResolver, useForm, type FormErrors, type UseFormInput } from "@mantine/form";
/** A Standard Schema (zod 4 is one), as `@mantine/form`'s own resolver takes it. */
type Schema = Parameters<typeof schemaResolver>[0];

/**
 * A form that validates with the API's own request schema (a zod schema of `@burnbox/contracts`):
 * what the API would refuse is refused before sending, with the contract's message under the
 * field. Import the schema from its module (`@burnbox/contracts/src/tenancy/domains.schemas`), not
 * the package's index, so a page's chunk carries only the schemas it uses.
 *
 * `toBody` maps the form's values to the request body the schema checks (blank optional fields
 * left out, say); by default the values are the body.
 */
export function useContractForm<Values extends Record<string, unknown>>(
  schema: Schema,
  initialValues: Values,
  options: {
    toBody?: (values: Values) => unknown;
    /** the form's own rules beyond the contract's (stricter, or in the page's words); their messages win */
    rules?: (values: Values) => FormErrors;
  } & Omit<UseFormInput<Values>, "initialValues" | "validate"> = {},
) {
  const { toBody, rules, ...input } = options;
  const contract = contractErrors(schema, toBody);
  return useForm<Values>({
    mode: "controlled",
    ...input,
    initialValues,
    validate: (values) => ({ ...contract(values), ...(rules ? definedErrors(rules(values)) : {}) }),
  });
}

const definedErrors = (errors: FormErrors): FormErrors => Object.fromEntries(Object.entries(errors).filter(([, e]) => e != null));

/** The form's errors by the schema: `{ "domain_name": "must be a domain name such as …" }`, `{}` when the API would accept the body. */
export function contractErrors<Values>(schema: Schema, toBody?: (values: Values) => unknown): (values: Values) => FormErrors {
  const check = schemaResolver(schema, { sync: true });
  return (values) => check(toBody ? toBody(values) : values);
}
