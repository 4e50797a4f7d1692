import { ActionIcon, Menu, type MenuProps } from "@mantine/core";
import { IconDots } from "@tabler/icons-react";
import type { ReactNode } from "react";

/** A row's menu of actions: the "…" button (`label` names it: "Actions for ada@example.com") and its items (`children`, `<Menu.Item>`s). */
export function RowMenu({ label, children, ...menu }: { label: string; children: ReactNode } & Omit<MenuProps, "children">) {
  return (
    <Menu position="bottom-end" {...menu}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
