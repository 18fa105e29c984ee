import { create } from 'zustand';

interface UiState {
  /** How many modals are open; the tab bar hides while this is above zero. */
  openModals: number;
  modalOpened: () => void;
  modalClosed: () => void;
  reset: () => void;
}

export const useUi = create<UiState>()((set) => ({
  openModals: 0,
  modalOpened: () => set((s) => ({ openModals: s.openModals + 1 })),
  modalClosed: () => set((s) => ({ openModals: Math.max(0, s.openModals - 1) })),
  reset: () => set({ openModals: 0 }),
}));

export const selectAnyModalOpen = (state: UiState): boolean => state.openModals > 0;
