import { EmptyState, PageHeader } from "../../components";

// placeholder until the team area lands
export default function ApiKeysPage() {
  return (
    <>
      <PageHeader title="API keys" />
      <EmptyState title="No API keys yet">Keys of the team you chose in the header will be listed here.</EmptyState>
    </>
  );
}
