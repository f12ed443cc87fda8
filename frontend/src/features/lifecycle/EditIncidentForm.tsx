import { useId, useState } from 'react';
import { SEVERITIES, type Incident, type Severity } from '../../api/types';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { useEscape } from '../../shared/hooks/useHotkeys';
import { draftOf, isEmptyPatch, patchOf, type EditDraft } from './editForm';
import { usePatchIncident } from './queries';

/** Title, severity, summary, root cause, remediation and who may see it; Save sends what changed, Esc cancels. */
export function EditIncidentForm({ incident, onDone }: { incident: Incident; onDone: () => void }) {
  const id = useId();
  const save = usePatchIncident(incident.id);
  const [draft, setDraft] = useState<EditDraft>(() => draftOf(incident));
  const [problem, setProblem] = useState<string | null>(null);
  const set = <K extends keyof EditDraft>(key: K, value: EditDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  useEscape(onDone);

  const submit = (e: React.SyntheticEvent<HTMLFormElement>) => {
    e.preventDefault();
    const { patch, problem: p } = patchOf(incident, draft);
    setProblem(p);
    if (p !== null) return;
    if (isEmptyPatch(patch)) {
      onDone();
      return;
    }
    save.mutate(patch, { onSuccess: onDone });
  };

  return (
    <form
      className="card form"
      aria-label="Edit incident"
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDone();
        }
      }}
    >
      <div className="form__grid">
        <label htmlFor={`${id}-title`}>Title</label>
        <input id={`${id}-title`} name="title" autoFocus required maxLength={300} value={draft.title} onChange={(e) => set('title', e.target.value)} />

        <label htmlFor={`${id}-severity`}>Severity</label>
        <select id={`${id}-severity`} name="severity" value={draft.severity} onChange={(e) => set('severity', e.target.value as Severity)}>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {s.toUpperCase()}
            </option>
          ))}
        </select>

        <label htmlFor={`${id}-summary`}>Summary</label>
        <textarea id={`${id}-summary`} name="summary" rows={3} value={draft.summary} onChange={(e) => set('summary', e.target.value)} />

        <label htmlFor={`${id}-root-cause`}>
          Root cause
        </label>
        <textarea
          id={`${id}-root-cause`}
          name="root_cause"
          rows={3}
          placeholder="What made it happen, once known."
          value={draft.rootCause}
          onChange={(e) => set('rootCause', e.target.value)}
        />

        <label htmlFor={`${id}-remediation`}>
          Remediation
        </label>
        <textarea
          id={`${id}-remediation`}
          name="remediation"
          rows={3}
          placeholder="What was done, or is to be done, about it."
          value={draft.remediation}
          onChange={(e) => set('remediation', e.target.value)}
        />

        <label htmlFor={`${id}-visibility`}>Visible to</label>
        <div className="row">
          <select
            id={`${id}-visibility`}
            name="visibility"
            value={draft.visibility}
            onChange={(e) => set('visibility', e.target.value === 'restricted' ? 'restricted' : 'team')}
          >
            <option value="team">the team</option>
            <option value="restricted">only these people</option>
          </select>
          {draft.visibility === 'restricted' ? (
            <input
              name="members"
              aria-label="Members"
              placeholder="user names, comma-separated (admins always see it)"
              value={draft.members}
              onChange={(e) => set('members', e.target.value)}
            />
          ) : null}
        </div>
      </div>
      {problem ? (
        <p className="form__problem" role="alert">
          {problem}
        </p>
      ) : null}
      {save.isError ? <ErrorBanner title="Could not save the incident." error={save.error} /> : null}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
        <span className="muted small">Esc cancels</span>
      </div>
    </form>
  );
}
