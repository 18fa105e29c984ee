import type { ReactNode } from 'react';
import { Modal } from './Modal';

export interface FiltersModalProps {
  open: boolean;
  onClose: () => void;
  /** Called by the Done button, before the modal closes. */
  onDone?: () => void;
  children: ReactNode;
}

/** Generic filter sheet: the screen passes its filter controls as children. */
export function FiltersModal({ open, onClose, onDone, children }: FiltersModalProps) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Filters"
      footer={
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            onDone?.();
            onClose();
          }}
        >
          Done
        </button>
      }
    >
      {children}
    </Modal>
  );
}
