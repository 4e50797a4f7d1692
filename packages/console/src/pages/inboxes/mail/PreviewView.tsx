import { Group, Paper, SegmentedControl, SimpleGrid, Skeleton, Stack, Switch, Text } from "@mantine/core";
import { useState } from "react";
import { ApiError } from "../../../components";
import { useObjectUrl } from "../../../lib/useObjectUrl";
import { usePreview, type PreviewParams } from "../api";

const WIDTHS: Array<{ value: PreviewParams["width"]; label: string }> = [
  { value: "1280", label: "1280 px" },
  { value: "600", label: "600 px" },
  { value: "375", label: "375 px" },
];
const SCHEMES: Array<PreviewParams["scheme"]> = ["light", "dark"];

/**
 * The reader's "Preview" tab (extensions section 12): the mail as the renderer's Chromium draws it
 * at one width, light and dark side by side; remote images stay blocked unless the reader allows them.
 */
export function PreviewView({ emailId, subject }: { emailId: string; subject: string }) {
  const [width, setWidth] = useState<PreviewParams["width"]>("600");
  const [images, setImages] = useState<PreviewParams["images"]>("blocked");
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SegmentedControl aria-label="Preview width" value={width} onChange={setWidth} data={WIDTHS} />
        <Switch
          label="Load remote images"
          checked={images === "allowed"}
          onChange={(e) => setImages(e.currentTarget.checked ? "allowed" : "blocked")}
        />
      </Group>
      <Text size="xs" c="dimmed">
        1280 px is a desktop browser, 600 px a mail client&apos;s reading pane, 375 px a phone. Rendered in headless Chromium with scripts
        off{images === "blocked" ? " and remote images blocked" : ""}; the same mail at {width} px in a light and a dark colour scheme.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {SCHEMES.map((scheme) => (
          <PreviewImage key={scheme} emailId={emailId} subject={subject} params={{ width, scheme, images }} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function PreviewImage({ emailId, subject, params }: { emailId: string; subject: string; params: PreviewParams }) {
  const q = usePreview({ emailId, params }, { staleTime: Infinity, retry: false });
  const url = useObjectUrl(q.data);
  const name = `${params.scheme === "light" ? "Light" : "Dark"}, ${params.width} px`;
  return (
    <Paper withBorder p="xs" component="figure" m={0} aria-label={name}>
      <Text component="figcaption" size="sm" fw={600} mb={6}>
        {name}
      </Text>
      {q.error ? (
        <ApiError error={q.error} title="The preview could not be rendered" onRetry={() => void q.refetch()} />
      ) : url ? (
        <div style={{ maxHeight: "70vh", overflow: "auto" }} tabIndex={0} role="region" aria-label={`${name}, scrolls`}>
          <img
            src={url}
            alt={`“${subject || "(no subject)"}” rendered at ${params.width} px, ${params.scheme} scheme`}
            data-testid="preview-image"
            data-scheme={params.scheme}
            data-width={params.width}
            style={{ display: "block", width: "100%", height: "auto" }}
          />
        </div>
      ) : (
        <Skeleton h={320} aria-label={`Rendering the preview, ${name}`} />
      )}
    </Paper>
  );
}
