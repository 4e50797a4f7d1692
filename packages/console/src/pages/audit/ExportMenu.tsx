import { Alert, Button, Group, Menu } from "@mantine/core";
import { IconChevronDown, IconDownload } from "@tabler/icons-react";
import { useState } from "react";
import { useAuditExport, type AuditExportQuery } from "./api";
import { ApiErrorAlert } from "../../components";
import { filenameOf, type AuditFilters } from "./format";

/**
 * `GET /orgs/:id/audit/export?format=csv|json` with the list's filters: the API's attachment,
 * saved under the name it gives. The bytes come with the session's token, so they are fetched
 * here and handed to the browser as a blob.
 */
export function ExportMenu({ orgId, filters }: { orgId: string; filters: AuditFilters }) {
  const exportAudit = useAuditExport();
  const [busy, setBusy] = useState<"csv" | "json" | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<{ name: string; truncated: boolean } | null>(null);

  const download = async (format: "csv" | "json") => {
    setBusy(format);
    setError(null);
    setDone(null);
    try {
      const { blob, headers } = await exportAudit(orgId, { ...filters, format } as AuditExportQuery);
      const name = filenameOf(headers.get("content-disposition") ?? null, `audit.${format}`);
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setDone({ name, truncated: headers.get("x-truncated") === "true" });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Group gap="sm" wrap="wrap">
      <Menu position="bottom-end">
        <Menu.Target>
          <Button
            variant="light"
            size="sm"
            leftSection={<IconDownload size={16} />}
            rightSection={<IconChevronDown size={14} />}
            loading={busy !== null}
          >
            Export
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>The entries these filters match</Menu.Label>
          <Menu.Item onClick={() => void download("csv")}>CSV (spreadsheets)</Menu.Item>
          <Menu.Item onClick={() => void download("json")}>JSON</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {done && (
        <Alert
          role="status"
          color={done.truncated ? "yellow" : "teal"}
          variant="light"
          py={6}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setDone(null)}
        >
          Downloaded {done.name}.{done.truncated && " It holds the newest 10,000 entries only: narrow the dates to export the rest."}
        </Alert>
      )}
      <ApiErrorAlert error={error} title="The export failed" />
    </Group>
  );
}
