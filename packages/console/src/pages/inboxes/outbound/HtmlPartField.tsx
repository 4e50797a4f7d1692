import { Textarea, type TextareaProps } from "@mantine/core";

/** The optional HTML part of a reply or a new message, typed as source (`form.getInputProps("html")`). */
export function HtmlPartField(props: TextareaProps) {
  return (
    <Textarea
      label="HTML (optional)"
      description="Sent beside the text as its HTML part"
      autosize
      minRows={2}
      maxRows={10}
      styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
      {...props}
    />
  );
}
