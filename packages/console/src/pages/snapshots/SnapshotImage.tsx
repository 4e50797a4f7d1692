import { Paper, Skeleton, Text } from "@mantine/core";
import { ApiError } from "../../components";
import { useObjectUrl } from "../../lib/useObjectUrl";
import { useSnapshotImage } from "./api";

/** One of a snapshot's pictures (from the address the API gave), fetched with the session's token and shown from an object URL. */
export function SnapshotImage({ url, caption, alt, testId }: { url: string; caption: string; alt: string; testId: string }) {
  const q = useSnapshotImage({ url }, { staleTime: Infinity, retry: false });
  const src = useObjectUrl(q.data);
  return (
    <Paper withBorder p="xs" component="figure" m={0}>
      <Text component="figcaption" size="sm" fw={600} mb={6}>
        {caption}
      </Text>
      {q.error ? (
        <ApiError error={q.error} title="The picture could not be loaded" onRetry={() => void q.refetch()} />
      ) : src ? (
        <div style={{ maxHeight: 560, overflow: "auto" }} tabIndex={0} role="region" aria-label={`${alt}, scrolls`}>
          <img src={src} alt={alt} data-testid={testId} style={{ display: "block", width: "100%", height: "auto" }} />
        </div>
      ) : (
        <Skeleton h={240} aria-label={`Loading ${alt}`} />
      )}
    </Paper>
  );
}
