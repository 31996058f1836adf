/** Result toasts (Radix Toast: announced to screen readers, dismissible, timed). */
import { Toast } from 'radix-ui';
import { create } from 'zustand';

interface ToastMessage {
  readonly id: number;
  readonly title: string;
  readonly description?: string;
  readonly tone: 'ok' | 'error';
}

interface ToastState {
  toasts: ToastMessage[];
  push: (toast: Omit<ToastMessage, 'id'>) => void;
  dismiss: (id: number) => void;
}

let nextToastId = 1;

export const useToasts = create<ToastState>((set) => ({
  toasts: [],
  push: (toast) => set((state) => ({ toasts: [...state.toasts, { ...toast, id: nextToastId++ }] })),
  dismiss: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
}));

export function Toasts() {
  const { toasts, dismiss } = useToasts();
  return (
    <Toast.Provider swipeDirection="right" duration={5000}>
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          className={`toast toast-${toast.tone}`}
          onOpenChange={(open) => !open && dismiss(toast.id)}
        >
          <Toast.Title className="toast-title">{toast.title}</Toast.Title>
          {toast.description && (
            <Toast.Description className="toast-description">{toast.description}</Toast.Description>
          )}
          <Toast.Close className="toast-close" aria-label="Dismiss">
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" />
    </Toast.Provider>
  );
}
