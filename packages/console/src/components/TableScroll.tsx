import { Table, type TableScrollContainerProps } from "@mantine/core";

/**
 * A table that scrolls sideways on a narrow screen. Its viewport takes the focus (a region named
 * "<label>, scrolls sideways"), so a keyboard alone can scroll it: a scrolling area with nothing
 * focusable inside is out of a keyboard user's reach (axe: scrollable-region-focusable).
 */
export function TableScroll({ label, ...props }: { label: string } & Omit<TableScrollContainerProps, "scrollAreaProps">) {
  return (
    <Table.ScrollContainer
      {...props}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: "region", "aria-label": `${label}, scrolls sideways` } }}
    />
  );
}
