/**
 * The generic modal (spec 2): 340px by default; the backdrop closes it only
 * when the caller allows it.
 */
import { Modal } from '@mantine/core';
import type { ReactNode } from 'react';
import { DEFAULT_MODAL_WIDTH } from '@exame/shared';

export type AppModalProps = {
  opened: boolean;
  onClose: () => void;
  title?: ReactNode;
  width?: string;
  allowBackdropClose?: boolean;
  children: ReactNode;
};

export function AppModal({
  opened,
  onClose,
  title,
  width,
  allowBackdropClose = false,
  children,
}: AppModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={width ?? DEFAULT_MODAL_WIDTH}
      centered
      closeOnClickOutside={allowBackdropClose}
    >
      {children}
    </Modal>
  );
}
