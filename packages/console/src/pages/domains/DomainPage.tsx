import { Anchor, Button, Skeleton, Stack, Text } from "@mantine/core";
import { IconArrowLeft, IconRefresh, IconTransfer, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useIsSystemAdmin, useOrgPermissions } from "../../api/permissions";
import type { OrgWithRole } from "../../api/workspace";
import { ApiErrorAlert, PageHeader, Notice } from "../../components";
import { OrgGate } from "../../components/OrgGate";
import { TransferModal } from "../../components/TransferModal";
import { DomainSettings } from "./DomainSettings";
import { domainsKeys } from "./keys";
import { useDomain, useVerifyDomain, useTransferDomain } from "./api";

import { DeleteDomainModal } from "./DeleteDomainModal";
import { Checks } from "./DnsChecks";
import { Records } from "./DnsRecords";
import { History } from "./VerificationHistory";
export default function DomainPage() {
  return <OrgGate title="Domain">{(org) => <DomainView org={org} />}</OrgGate>;
}

function DomainView({ org }: { org: OrgWithRole }) {
  const { domainId = "" } = useParams();
  const path = { orgId: org.id, domainId };
  const perms = useOrgPermissions(org.id);
  const isAdmin = useIsSystemAdmin();
  const canManage = perms.can("org.domains.manage");
  const navigate = useNavigate();
  const q = useDomain({ orgId: org.id, domainId, path });
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const verify = useVerifyDomain(
    { path },
    {
      invalidates: [domainsKeys.all(org.id)],
      onSuccess: (d) => setNotice(`Checked just now: ${d.status === "verified" ? "both records are in place." : "see the results below."}`),
    },
  );
  const transfer = useTransferDomain(
    { path },
    {
      invalidates: [domainsKeys.lists(org.id)],
      onSuccess: () => {
        setTransferring(false);
        void navigate("/domains", { replace: true });
      },
    },
  );

  if (q.error && !q.data)
    return (
      <>
        <PageHeader title="Domain" />
        <ApiErrorAlert error={q.error} />
        <BackLink />
      </>
    );
  if (!q.data) return <Skeleton h={240} aria-label="Loading the domain" />;
  const d = q.data;
  return (
    <>
      <BackLink />
      <PageHeader
        title={d.domain_name}
        description={d.description ?? undefined}
        actions={
          <>
            {canManage && (
              <Button leftSection={<IconRefresh size={16} />} loading={verify.isPending} onClick={() => verify.mutate(undefined)}>
                Verify now
              </Button>
            )}
            {isAdmin && (
              <Button variant="default" leftSection={<IconTransfer size={16} />} onClick={() => setTransferring(true)}>
                Transfer
              </Button>
            )}
            {canManage && (
              <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setDeleting(true)}>
                Delete
              </Button>
            )}
          </>
        }
      />
      {notice && (
        <Notice onClose={() => setNotice(null)} mb="sm">
          {notice}
        </Notice>
      )}
      <ApiErrorAlert error={verify.error} />
      <Stack gap="lg">
        <Records domain={d} />
        <Checks domain={d} />
        <History orgId={org.id} domainId={domainId} />
        <DomainSettings orgId={org.id} domain={d} canManage={canManage} />
      </Stack>
      <DeleteDomainModal opened={deleting} orgId={org.id} domain={d} onClose={() => setDeleting(false)} />
      <TransferModal
        opened={transferring}
        title={`Transfer ${d.domain_name}`}
        fromOrgId={org.id}
        loading={transfer.isPending}
        error={transfer.error}
        onTransfer={(target) => transfer.mutate(target)}
        onClose={() => setTransferring(false)}
      >
        The domain moves to another organization: its team assignments here are removed and its active inboxes deactivated.
      </TransferModal>
      {!canManage && !perms.isLoading && (
        <Text size="sm" c="dimmed" mt="lg">
          Only owners and admins of the organization can check, delete or change a domain, or its settings.
        </Text>
      )}
    </>
  );
}

function BackLink() {
  return (
    <Anchor component={Link} to="/domains" size="sm" mb="xs" display="inline-flex" style={{ alignItems: "center", gap: 4 }}>
      <IconArrowLeft size={14} /> All domains
    </Anchor>
  );
}
