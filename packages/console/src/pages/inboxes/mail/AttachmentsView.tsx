import { Alert, Button, Group, Paper, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { messageOf, useAttachmentFetcher, type Email } from "../api";
import { EmptyState } from "../../../components";

type Attachment = Email["attachments"][number];

const IMAGE = /^image\/(png|jpe?g|gif|webp|bmp|avif)$/i;
const PDF = /^application\/pdf$/i;
const previewable = (a: Attachment) => IMAGE.test(a.content_type) || PDF.test(a.content_type);

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The attachments: download any; preview images and PDFs inline (the bytes fetched with the session, shown from a blob). */
export function AttachmentsView({ email }: { email: Email }) {
  if (email.attachments.length === 0)
    return <EmptyState title="No attachments">This mail came without files. Executable attachments are dropped on arrival.</EmptyState>;
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label="Attachments">
      {email.attachments.map((a) => (
        <AttachmentRow key={a.id} emailId={email.id} attachment={a} />
      ))}
    </Stack>
  );
}

function AttachmentRow({ emailId, attachment: a }: { emailId: string; attachment: Attachment }) {
  const fetchBlob = useAttachmentFetcher();
  const [busy, setBusy] = useState<"download" | "preview" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<{ url: string; kind: "image" | "pdf" } | null>(null);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview.url) : undefined), [preview]);

  const download = async () => {
    setBusy("download");
    setError(null);
    try {
      const blob = await fetchBlob(emailId, a.id);
      // octet-stream: the browser saves it, it never renders it under the console's origin
      const url = URL.createObjectURL(new Blob([blob], { type: "application/octet-stream" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = a.filename || "attachment";
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  const showPreview = async () => {
    if (preview) return setPreview(null);
    setBusy("preview");
    setError(null);
    try {
      const blob = await fetchBlob(emailId, a.id);
      const kind = PDF.test(a.content_type) ? "pdf" : "image";
      // the type is ours, not the sender's: an image or a PDF, never HTML
      const type = kind === "pdf" ? "application/pdf" : a.content_type.toLowerCase();
      setPreview({ url: URL.createObjectURL(new Blob([blob], { type })), kind });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Paper component="li" withBorder p="sm" data-testid="attachment">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
            {a.filename || "(unnamed)"}
          </Text>
          <Text size="xs" c="dimmed">
            {a.content_type} · {formatBytes(a.size_bytes)}
          </Text>
        </div>
        <Group gap="xs">
          {previewable(a) ? (
            <Button size="xs" variant="light" onClick={() => void showPreview()} loading={busy === "preview"} aria-expanded={!!preview}>
              {preview ? "Hide preview" : "Preview"}
            </Button>
          ) : null}
          <Button
            size="xs"
            variant="light"
            onClick={() => void download()}
            loading={busy === "download"}
            aria-label={`Download ${a.filename}`}
          >
            Download
          </Button>
        </Group>
      </Group>
      {error ? (
        <Alert color="red" mt="xs" role="alert">
          {error}
        </Alert>
      ) : null}
      {preview?.kind === "image" ? (
        <img
          src={preview.url}
          alt={`Preview of ${a.filename}`}
          style={{ display: "block", maxWidth: "100%", marginTop: 8 }}
          data-testid="attachment-preview"
        />
      ) : null}
      {preview?.kind === "pdf" ? (
        // a blob of type application/pdf (set here, whatever the sender said): the browser's PDF viewer, never a page
        <iframe
          src={preview.url}
          title={`Preview of ${a.filename}`}
          data-testid="attachment-preview"
          style={{ display: "block", width: "100%", height: 480, marginTop: 8, border: "1px solid var(--mantine-color-default-border)" }}
        />
      ) : null}
    </Paper>
  );
}
