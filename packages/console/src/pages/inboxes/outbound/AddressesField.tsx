import { TextInput, type TextInputProps } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import { listError } from "./outbound-form";

/**
 * A field the recipients are typed into, separated by commas (`to`, `cc`): the form's list
 * field, with the contract's first error for the list or any of its addresses under it.
 */
export function AddressesField<V extends Record<string, unknown>>({
  form,
  field,
  ...input
}: { form: UseFormReturnType<V>; field: keyof V & string } & Omit<TextInputProps, "form">) {
  return <TextInput {...input} {...form.getInputProps(field)} error={listError(form.errors, field)} />;
}
