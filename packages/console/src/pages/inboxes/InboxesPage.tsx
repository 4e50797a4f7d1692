import { EmptyState, PageHeader } from "../../components";

// placeholder until the inboxes area lands
export default function InboxesPage() {
  return (
    <>
      <PageHeader title="Inboxes" />
      <EmptyState title="No inboxes yet">Disposable inboxes of the team you chose in the header will be listed here.</EmptyState>
    </>
  );
}
