/**
 * Guest links of one incident, for responders and admins: make a read-only link for someone without
 * an account (a vendor), limited to some captures and views if wanted; see who has used which; revoke.
 * The link's secret is shown once, at creation.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { RevokeButton } from '../../shared/components/RevokeButton';
import { SecretOnce } from '../../shared/components/SecretOnce';
import { ErrorBanner } from '../../shared/components/ErrorBanner';
import { Time } from '../../shared/components/Time';
import { usePermissions } from '../auth/usePermissions';
import { capturesQuery } from '../captures/queries';
import { createGuestLink, GUEST_VIEWS, guestLinkState, guestLinkUrl, revokeGuestLink, type GuestLink, type GuestView, type NewGuestLink } from './api';
import { checkGuestLink, DEFAULT_GUEST_DAYS, MAX_GUEST_DAYS } from './guestLinkForm';
import { guestLinksQuery } from './queries';
import './guests.css';

export function GuestLinksPanel({ incident }: { incident: number }) {
  const can = usePermissions();
  if (!can.canRespond) return null;
  return <GuestLinks incident={incident} />;
}

function GuestLinks({ incident }: { incident: number }) {
  const id = useId();
  const qc = useQueryClient();
  const links = useQuery(guestLinksQuery(incident));
  const captures = useQuery(capturesQuery(incident));
  const [label, setLabel] = useState('');
  const [days, setDays] = useState(String(DEFAULT_GUEST_DAYS));
  const [chosenCaptures, setChosenCaptures] = useState<ReadonlySet<number>>(new Set());
  const [chosenViews, setChosenViews] = useState<ReadonlySet<GuestView>>(new Set());
  const [bundle, setBundle] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<NewGuestLink | null>(null);
  // When the panel opened: good enough to tell an expired link from an active one.
  const [now] = useState(() => Date.now());
  const refresh = () => void qc.invalidateQueries({ queryKey: guestLinksQuery(incident).queryKey });
  const create = useMutation({
    mutationFn: (body: Parameters<typeof createGuestLink>[1]) => createGuestLink(incident, body),
    onSuccess: (link) => {
      setCreated(link);
      setLabel('');
      setChosenCaptures(new Set());
      setChosenViews(new Set());
    },
    onSettled: refresh,
  });
  const revoke = useMutation({ mutationFn: revokeGuestLink, onSettled: refresh });

  const toggle = <T,>(set: ReadonlySet<T>, item: T, on: boolean): Set<T> => {
    const next = new Set(set);
    if (on) next.add(item);
    else next.delete(item);
    return next;
  };

  return (
    <section className="stack stack--tight guest-links" aria-labelledby={`${id}-title`} data-testid="guest-links">
      <h2 id={`${id}-title`}>Guest links</h2>
      <p className="muted small">
        A read-only link to this incident for someone without an account. It expires, can be revoked at any time, and every
        opening is in the audit log.
      </p>
      <form
        className="card stack stack--tight"
        aria-label="New guest link"
        onSubmit={(e) => {
          e.preventDefault();
          const check = checkGuestLink({ label, days, captures: chosenCaptures, views: chosenViews, bundle });
          setProblem(check.ok ? null : check.problem);
          if (check.ok) create.mutate(check.request);
        }}
      >
        <div className="row">
          <label className="field">
            <span>For</span>
            <input name="label" value={label} placeholder="vendor support" maxLength={200} onChange={(e) => setLabel(e.target.value)} />
          </label>
          <label className="field">
            <span>Expires after (days)</span>
            <input name="expires_in_days" type="number" min={1} max={MAX_GUEST_DAYS} value={days} onChange={(e) => setDays(e.target.value)} />
          </label>
        </div>
        <fieldset className="guest-links__choices">
          <legend>Captures (none ticked: all)</legend>
          {(captures.data ?? []).map((c) => (
            <label key={c.id} className="guest-links__choice">
              <input
                type="checkbox"
                checked={chosenCaptures.has(c.id)}
                onChange={(e) => setChosenCaptures((s) => toggle(s, c.id, e.target.checked))}
              />
              <span className="mono">#{c.id}</span> {c.filename}
            </label>
          ))}
          {captures.data?.length === 0 ? <span className="muted small">no captures yet</span> : null}
        </fieldset>
        <fieldset className="guest-links__choices">
          <legend>Views (none ticked: all)</legend>
          {GUEST_VIEWS.map((v) => (
            <label key={v} className="guest-links__choice">
              <input type="checkbox" checked={chosenViews.has(v)} onChange={(e) => setChosenViews((s) => toggle(s, v, e.target.checked))} />
              {v}
            </label>
          ))}
        </fieldset>
        <label className="guest-links__choice">
          <input type="checkbox" name="bundle" checked={bundle} onChange={(e) => setBundle(e.target.checked)} />
          May download the bundle of what the link shows (redacted, no raw captures)
        </label>
        {problem ? (
          <p className="form__problem" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="row">
          <button type="submit" className="btn btn--primary" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create guest link'}
          </button>
        </div>
      </form>
      {create.isError ? <ErrorBanner title="Could not create the guest link:" error={create.error} /> : null}
      {created ? <NewLink link={created} onDone={() => setCreated(null)} /> : null}
      {revoke.isError ? <ErrorBanner title="Could not revoke the guest link:" error={revoke.error} /> : null}
      {links.isError ? <ErrorBanner title="Could not load the guest links:" error={links.error} onRetry={() => void links.refetch()} /> : null}
      {links.data && links.data.length > 0 ? (
        <table className="table" data-testid="guest-link-list">
          <thead>
            <tr>
              <th>For</th>
              <th>Prefix</th>
              <th>Shows</th>
              <th>Expires</th>
              <th className="num">Uses</th>
              <th>Last used</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {links.data.map((link) => (
              <LinkRow
                key={link.id}
                link={link}
                state={guestLinkState(link, now)}
                revoking={revoke.isPending && revoke.variables === link.id}
                onRevoke={() => revoke.mutate(link.id)}
              />
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function LinkRow({ link, state, revoking, onRevoke }: { link: GuestLink; state: ReturnType<typeof guestLinkState>; revoking: boolean; onRevoke: () => void }) {
  const shows = [
    link.views ? link.views.join(', ') : 'every view',
    link.capture_ids ? `captures ${link.capture_ids.join(', ')}` : 'every capture',
    ...(link.bundle ? ['may download the bundle'] : []),
  ];
  return (
    <tr className={state === 'active' ? undefined : 'muted'} data-testid="guest-link-row" data-label={link.label}>
      <td>{link.label || <span className="muted">–</span>}</td>
      <td className="mono">{link.prefix}…</td>
      <td className="small">{shows.join(' · ')}</td>
      <td>
        <Time iso={link.expires_at} />
      </td>
      <td className="num">{link.uses}</td>
      <td>{link.last_used_at ? <Time iso={link.last_used_at} relative /> : <span className="muted">never</span>}</td>
      <td data-testid="guest-link-state">
        {state === 'revoked' ? (
          <>
            revoked <Time iso={link.revoked_at} />
          </>
        ) : (
          state
        )}
      </td>
      <td className="actions">
        {link.revoked_at ? null : (
          <RevokeButton question={`Revoke the guest link for “${link.label}” (${link.prefix}…)? Whoever holds it loses access at once.`} revoking={revoking} onRevoke={onRevoke} />
        )}
      </td>
    </tr>
  );
}

function NewLink({ link, onDone }: { link: NewGuestLink; onDone: () => void }) {
  return (
    <SecretOnce
      what={`Guest link for “${link.label}” created`}
      noun="it"
      value={guestLinkUrl(window.location.origin, link.path)}
      onDone={onDone}
      testId="guest-link-secret"
      valueTestId="guest-link-url"
    >
      Expires <Time iso={link.expires_at} />. Anyone holding it can read what it shows until then, unless you revoke it.
    </SecretOnce>
  );
}
