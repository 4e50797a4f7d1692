import { Alert, Button, Group, Text } from "@mantine/core";
import { useMemo, useState } from "react";
import { prepareMailHtml } from "./mail-html";

/**
 * The mail's HTML in a sandboxed frame: no `allow-scripts`, no `allow-same-origin`, no forms, no
 * top navigation; links open in a new tab outside the sandbox. Remote images wait for the reader.
 */
export function HtmlView({ html, subject }: { html: string; subject: string }) {
  const [loadRemote, setLoadRemote] = useState(false);
  const prepared = useMemo(() => prepareMailHtml(html, { loadRemote }), [html, loadRemote]);
  return (
    <>
      {prepared.blocked > 0 ? (
        <Alert color="gray" variant="light" mb="sm" data-testid="remote-blocked">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm">
              {prepared.blocked} remote {prepared.blocked === 1 ? "image was" : "images were"} not loaded, so the sender cannot tell you
              opened this mail.
            </Text>
            <Button size="xs" variant="light" onClick={() => setLoadRemote(true)}>
              Load remote images
            </Button>
          </Group>
        </Alert>
      ) : null}
      <iframe
        key={loadRemote ? "remote" : "local"}
        title={`The HTML of “${subject || "(no subject)"}”`}
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        referrerPolicy="no-referrer"
        srcDoc={prepared.srcdoc}
        data-testid="mail-html"
        style={{
          width: "100%",
          height: "min(70vh, 900px)",
          border: "1px solid var(--mantine-color-default-border)",
          borderRadius: 4,
          background: "#fff",
        }}
      />
    </>
  );
}
