import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { SEVERITIES, type Severity, type Visibility } from '../../api/types';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { localInputToUtcIso, toLocalInputValue } from '../../shared/time';
import { useCreateIncident } from './queries';
import { visibilityFields } from './visibility';

const SEVERITY_HELP: Record<Severity, string> = {
  sev1: 'SEV1 — critical, customer-facing outage',
  sev2: 'SEV2 — major degradation',
  sev3: 'SEV3 — minor, limited impact',
  sev4: 'SEV4 — low, investigation',
};

export function NewIncidentForm({ onCancel }: { onCancel: () => void }) {
  const id = useId();
  const navigate = useNavigate();
  const create = useCreateIncident();
  const [title, setTitle] = useState('');
  const [severity, setSeverity] = useState<Severity>('sev3');
  const [startedLocal, setStartedLocal] = useState(() => toLocalInputValue(new Date()));
  const [summary, setSummary] = useState('');
  const [visibility, setVisibility] = useState<Visibility>('team');
  const [members, setMembers] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const submit = (e: React.SyntheticEvent<HTMLFormElement>) => {
    e.preventDefault();
    const startedAt = localInputToUtcIso(startedLocal);
    if (!title.trim()) {
      setProblem('Give the incident a title.');
      return;
    }
    if (!startedAt) {
      setProblem('Enter when the incident started.');
      return;
    }
    setProblem(null);
    create.mutate(
      { title: title.trim(), severity, started_at: startedAt, summary: summary.trim(), ...visibilityFields(visibility, members) },
      { onSuccess: (incident) => void navigate(`/incidents/${incident.id}`) },
    );
  };

  return (
    <form className="card form" onSubmit={submit} aria-label="New incident">
      <div className="form__grid">
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          id={`${id}-title`}
          name="title"
          autoFocus
          required
          maxLength={200}
          placeholder="e.g. checkout p99 at 2 s on db-3"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
        />

        <label htmlFor={`${id}-severity`}>Severity</label>
        <select id={`${id}-severity`} name="severity" value={severity} onChange={(e) => setSeverity(e.target.value as Severity)}>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {SEVERITY_HELP[s]}
            </option>
          ))}
        </select>

        <label htmlFor={`${id}-started`}>Started at</label>
        <div className="row">
          <input
            id={`${id}-started`}
            name="started_at"
            type="datetime-local"
            step={1}
            required
            value={startedLocal}
            onChange={(e) => setStartedLocal(e.target.value)}
          />
          <span className="muted small">your local time ({zone}); stored as UTC</span>
        </div>

        <label htmlFor={`${id}-summary`}>Summary</label>
        <textarea
          id={`${id}-summary`}
          name="summary"
          rows={3}
          placeholder="What was seen, where, since when. Markdown is not rendered."
          value={summary}
          onChange={(e) => setSummary(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.currentTarget.form?.requestSubmit();
          }}
        />

        <label htmlFor={`${id}-visibility`}>Visible to</label>
        <div className="row">
          <select id={`${id}-visibility`} name="visibility" value={visibility} onChange={(e) => setVisibility(e.target.value === 'restricted' ? 'restricted' : 'team')}>
            <option value="team">the team</option>
            <option value="restricted">only these people</option>
          </select>
          {visibility === 'restricted' ? (
            <input
              name="members"
              aria-label="Members"
              placeholder="user names, comma-separated (you are added)"
              value={members}
              onChange={(e) => setMembers(e.target.value)}
            />
          ) : null}
        </div>
      </div>
      {problem ? <p className="form__problem" role="alert">{problem}</p> : null}
      {create.isError ? <ErrorBanner title="Could not create the incident." error={create.error} /> : null}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create incident'}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
        <span className="muted small">Enter submits · Ctrl+Enter in the summary</span>
      </div>
    </form>
  );
}
