import { createStore } from './store';

export interface ConfirmOptions {
  title: string;
  body: string;
  /** Label of the main button. */
  action: string;
  /** Label of the dismiss button; omitted means no Cancel button. */
  cancel?: string;
  tone?: 'default' | 'danger';
}

interface OpenDialog extends ConfirmOptions {
  resolve: (confirmed: boolean) => void;
}

export const dialog = createStore<OpenDialog | null>(null);

/** Opens the shared confirm dialog; resolves true on the action, false on Cancel or Escape. */
export function confirmDialog(options: ConfirmOptions): Promise<boolean> {
  dialog.get()?.resolve(false);
  return new Promise((resolve) => dialog.set({ ...options, resolve }));
}

export function closeDialog(confirmed: boolean): void {
  const open = dialog.get();
  if (!open) return;
  dialog.set(null);
  open.resolve(confirmed);
}
