import { Limits } from '@survey-bird/contracts';
import { createStore } from './store';

export type ToastKind = 'error' | 'success' | 'warning';
export interface ToastItem {
  id: number;
  kind: ToastKind;
  text: string;
}

export const toasts = createStore<ToastItem[]>([]);
let nextId = 1;

function show(kind: ToastKind, text: string): void {
  const id = nextId++;
  // The same text twice in a row (a double tap) shows once.
  toasts.set((list) => [...list.filter((t) => t.text !== text), { id, kind, text }]);
  setTimeout(() => dismissToast(id), Limits.toastMs);
}

export function dismissToast(id: number): void {
  toasts.set((list) => list.filter((t) => t.id !== id));
}

/** Global toast, callable from anywhere (components, the API client, the worker prompt). */
export const toast = {
  error: (text: string) => show('error', text),
  success: (text: string) => show('success', text),
  warning: (text: string) => show('warning', text),
};
