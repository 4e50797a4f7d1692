import { List, Skeleton, Switch, Text } from "@mantine/core";
import { useState } from "react";
import { useNavigate } from "react-router";
import { ApiErrorAlert, ConfirmModal } from "../../components";
import { domainsKeys } from "./keys";
import { type Domain } from "./status";
import { useDomainImpact, useDeleteDomain } from "./api";

/**
 * Shows `GET …/impact` first; the delete button comes only with the figures. Stays mounted while
 * closed, so closing it gives the focus back to what opened it; the figures are asked on each
 * opening, and the choice and the error are forgotten once it has closed.
 */
export function DeleteDomainModal({
  opened,
  orgId,
  domain,
  onClose,
}: {
  opened: boolean;
  orgId: string;
  domain: Domain;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const path = { orgId, domainId: domain.id };
  const [force, setForce] = useState(false);
  const impact = useDomainImpact({ orgId, domainId: domain.id, path }, { enabled: opened });
  const del = useDeleteDomain(
    { path },
    { invalidates: [domainsKeys.lists(orgId)], onSuccess: () => navigate("/domains", { replace: true }) },
  );
  const i = impact.data;
  return (
    <ConfirmModal
      opened={opened}
      title={`Delete ${domain.domain_name}?`}
      confirmLabel="Delete domain"
      disabled={!i || (i.active_inboxes > 0 && !force)}
      loading={del.isPending}
      error={del.error}
      onConfirm={() => del.mutate(force)}
      onClose={onClose}
      onExitTransitionEnd={() => {
        setForce(false);
        del.reset();
      }}
      details={
        <>
          <ApiErrorAlert error={impact.error} />
          {!i ? (
            !impact.error && <Skeleton h={100} aria-label="Loading what deleting removes" />
          ) : (
            <>
              <Text size="sm">Deleting the domain removes:</Text>
              <List size="sm" aria-label="What deleting removes">
                <List.Item>
                  {i.total_inboxes} {i.total_inboxes === 1 ? "inbox" : "inboxes"} ({i.active_inboxes} active) with {i.total_emails}{" "}
                  {i.total_emails === 1 ? "email" : "emails"}
                </List.Item>
                <List.Item>
                  {i.assignments.length} team {i.assignments.length === 1 ? "assignment" : "assignments"}
                  {i.assignments.length > 0 &&
                    `: ${i.assignments.map((a) => `${a.team_name} (${a.access_level.replace("_", " ")})`).join(", ")}`}
                </List.Item>
                <List.Item>
                  {i.webhooks_affected} {i.webhooks_affected === 1 ? "webhook stops" : "webhooks stop"} hearing of it
                </List.Item>
              </List>
              {i.active_inboxes > 0 && (
                <Switch
                  label={`Delete it although ${i.active_inboxes} ${i.active_inboxes === 1 ? "inbox is" : "inboxes are"} active`}
                  checked={force}
                  onChange={(e) => setForce(e.currentTarget.checked)}
                />
              )}
            </>
          )}
        </>
      }
    />
  );
}
