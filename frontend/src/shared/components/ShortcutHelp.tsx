/**
 * `?` anywhere but in a text field: the keyboard shortcuts of the page as it is now, read from the
 * groups its components registered (useShortcuts), so the list is what the handlers do. Esc, `?`
 * again or the Close button closes it.
 */
import { useEffect, useId, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { isTyping } from '../hooks/useHotkeys';
import { OpenHelpContext, ShortcutRegistry, ShortcutRegistryContext, useOpenShortcutHelp } from '../hooks/useShortcuts';
import { helpOrder, keyLabels, shortcutFor, type ShortcutGroup } from '../shortcuts';
import './ShortcutHelp.css';

/** The help's own keys: read by its handler below and listed last in it. */
const HELP_SHORTCUTS: ShortcutGroup<'toggle' | 'close'> = {
  title: 'Anywhere',
  place: 'everywhere',
  shortcuts: [
    { action: 'toggle', keys: ['?'], does: 'Show or hide these shortcuts' },
    { action: 'close', keys: ['Escape'], does: 'Close this list' },
  ],
};

/** Give `children` the shortcut registry and the `?` help. One per layout. */
export function ShortcutHelp({ children }: { children: ReactNode }) {
  const [registry] = useState(() => new ShortcutRegistry());
  const [open, setOpen] = useState(false);
  const [openHelp] = useState(() => () => setOpen(true));

  useEffect(() => {
    // The capture phase, before any other listener: while the help is open no key (its Esc above
    // all) reaches the view behind it. Stopping the event keeps its default, so Tab still moves.
    const onKey = (e: KeyboardEvent) => {
      const hit = isTyping(e.target) ? null : shortcutFor(HELP_SHORTCUTS, e);
      if (open) e.stopPropagation();
      if (hit === null || (hit.action === 'close' && !open)) return;
      setOpen(hit.action === 'toggle' ? !open : false);
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);

  return (
    <ShortcutRegistryContext.Provider value={registry}>
      <OpenHelpContext.Provider value={openHelp}>
        {children}
        {open ? <HelpDialog registry={registry} onClose={() => setOpen(false)} /> : null}
      </OpenHelpContext.Provider>
    </ShortcutRegistryContext.Provider>
  );
}

/** A quiet button that opens the help, for people who do not know about `?`. */
export function ShortcutHelpButton() {
  const open = useOpenShortcutHelp();
  if (!open) return null;
  return (
    <button type="button" className="shortcut-help__open" onClick={open} title="Keyboard shortcuts (?)" aria-keyshortcuts="?" data-testid="shortcut-help-button">
      <span aria-hidden="true">?</span>
      <span className="visually-hidden">Keyboard shortcuts</span>
    </button>
  );
}

function HelpDialog({ registry, onClose }: { registry: ShortcutRegistry; onClose: () => void }) {
  const groups = useSyncExternalStore(registry.subscribe, registry.snapshot);
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof dialog.showModal === 'function') dialog.showModal();
    return () => before?.focus();
  }, []);
  return (
    <dialog
      ref={ref}
      className="shortcut-help"
      aria-labelledby={titleId}
      data-testid="shortcut-help"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="shortcut-help__body">
        <div className="shortcut-help__head">
          <h2 id={titleId}>Keyboard shortcuts</h2>
          <button type="button" className="btn btn--small" onClick={onClose}>
            Close
          </button>
        </div>
        {groups.length === 0 ? <p className="muted">This page has no shortcuts of its own.</p> : null}
        {helpOrder([...groups, HELP_SHORTCUTS]).map((g) => (
          <section key={`${g.title}:${g.where ?? ''}`} className="shortcut-help__group" data-testid="shortcut-group" data-title={g.title}>
            <h3>
              {g.title}
              {g.where ? <span className="muted small"> · {g.where}</span> : null}
            </h3>
            <dl>
              {g.shortcuts.map((s) => (
                <div key={s.action} className="shortcut-help__row" data-testid="shortcut" data-action={s.action}>
                  <dt>
                    {keyLabels(s).map((k, i) => (
                      <span key={k}>
                        {i > 0 ? <span className="muted"> or </span> : null}
                        <kbd>{k}</kbd>
                      </span>
                    ))}
                  </dt>
                  <dd>{s.does}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </dialog>
  );
}
