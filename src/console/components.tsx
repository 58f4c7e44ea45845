import { useContext, useRef } from 'preact/hooks';
import { createContext, type ComponentChildren } from 'preact';

/** The page's title, its level-one heading (main.tsx): a card titled like its page is headed by that heading alone. */
export const PageTitle = createContext<string | null>(null);

export function StatusBadge({ status }: { status: string | null | undefined }) {
  const value = status ?? 'none';
  return <span class={`badge badge-${value}`}>{value.replace('_', ' ')}</span>;
}

export function ErrorNote({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p class="error" role="alert">
      {message}
    </p>
  );
}

export function Section({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  // The page's own card (Holidays on the Holidays page) repeats no heading under the page's h1.
  const lead = useContext(PageTitle) === title;
  return (
    <section class="card" aria-label={title}>
      {(!lead || actions) && (
        <header class={lead ? 'card-head actions-only' : 'card-head'}>
          {!lead && <h2>{title}</h2>}
          {actions}
        </header>
      )}
      {children}
    </section>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

/**
 * A button for a destructive action: it opens a modal dialog that says what will happen and asks
 * again (the native <dialog>: focus moves into it, Escape cancels, the page behind is inert).
 */
export function ConfirmButton({
  label,
  labelDetail,
  title,
  children,
  confirm,
  onConfirm,
  disabled = false,
}: {
  /** `labelDetail` is read by screen readers after the visible `label` (which object the button acts on). */
  label: string;
  labelDetail?: string;
  title: string;
  children?: ComponentChildren;
  confirm: string;
  onConfirm: () => void | Promise<void>;
  disabled?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" class="danger" disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
        {labelDetail && <span class="sr-only"> {labelDetail}</span>}
      </button>
      <dialog ref={dialog} aria-label={title} class="confirm">
        <form
          method="dialog"
          onSubmit={async (event) => {
            const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
            if (submitter?.value === 'confirm') await onConfirm();
          }}
        >
          <h2>{title}</h2>
          {children}
          <p class="inline-form">
            <button type="submit" value="cancel" class="secondary" formNoValidate autofocus>
              Cancel
            </button>
            <button type="submit" value="confirm" class="danger">
              {confirm}
            </button>
          </p>
        </form>
      </dialog>
    </>
  );
}

/** An employee's full name. */
export function personName(e: { name: string; lastname: string } | null | undefined): string {
  return e ? `${e.name} ${e.lastname}`.trim() : 'unknown person';
}
