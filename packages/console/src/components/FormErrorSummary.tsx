import { Alert, List } from "@mantine/core";
import type { FormErrors } from "@mantine/form";
import { IconAlertCircle } from "@tabler/icons-react";

/**
 * What a form refused before sending, listed in one alert (the title the API's 400 has, "Please
 * check the form") beside the messages under the fields: a form whose fields sit in a long section
 * says so where its button is, so a keyboard or screen-reader user who pressed it learns why
 * nothing was sent. `labels` names each field path (`smtp_behaviour.reject_rcpt.code`: "Reply
 * code"); a path without a label is shown as it is. Nothing shows while the form has no errors,
 * so it suits a form that validates on submit (one that validates while typing would announce
 * every keystroke's complaint).
 */
export function FormErrorSummary({ errors, labels }: { errors: FormErrors; labels: Record<string, string> }) {
  const items = Object.entries(errors).filter(([, e]) => e != null && e !== false && e !== "");
  if (items.length === 0) return null;
  return (
    <Alert role="alert" color="red" variant="light" icon={<IconAlertCircle />} title="Please check the form">
      Nothing was sent. Correct these and try again:
      <List size="sm" mt="xs">
        {items.map(([path, message]) => (
          <List.Item key={path}>
            {labels[path] ?? path}: {message}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
