import { Button } from "@mantine/core";
import { IconArrowForwardUp, IconCornerUpLeft, IconPencil } from "@tabler/icons-react";
import { useState } from "react";
import type { EmailView, Inbox } from "../api";
import { ComposeModal } from "./ComposeModal";
import { ReleaseModal } from "./ReleaseModal";
import { ReplyModal } from "./ReplyModal";

/** A dialog that exists only while shown or fading out (a closed Mantine Modal still renders its portal). */
function useDialog() {
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  return {
    mounted,
    props: { opened, onClose: () => setOpened(false), onExitTransitionEnd: () => setMounted(false) },
    open: () => {
      setMounted(true);
      requestAnimationFrame(() => setOpened(true));
    },
  };
}

type Size = "xs" | "sm";

export function ReplyButton({ email, size = "xs" }: { email: EmailView; size?: Size }) {
  const d = useDialog();
  return (
    <>
      <Button size={size} variant="light" leftSection={<IconCornerUpLeft size={14} aria-hidden />} onClick={d.open}>
        Reply
      </Button>
      {d.mounted ? <ReplyModal email={email} {...d.props} /> : null}
    </>
  );
}

export function ReleaseButton({ email, size = "xs" }: { email: EmailView; size?: Size }) {
  const d = useDialog();
  return (
    <>
      <Button size={size} variant="light" leftSection={<IconArrowForwardUp size={14} aria-hidden />} onClick={d.open}>
        Release
      </Button>
      {d.mounted ? <ReleaseModal email={email} {...d.props} /> : null}
    </>
  );
}

export function ComposeButton({ inbox, size = "sm" }: { inbox: Inbox; size?: Size }) {
  const d = useDialog();
  return (
    <>
      <Button size={size} variant="light" leftSection={<IconPencil size={14} aria-hidden />} onClick={d.open}>
        Compose
      </Button>
      {d.mounted ? <ComposeModal inbox={inbox} {...d.props} /> : null}
    </>
  );
}
