/**
 * The console's own health (`GET /api/health`), read as what an engineer needs to know: which part is
 * down and what that means for their uploads. The endpoint answers 503 with the same body when a part
 * is down, so the body is read whatever the status.
 */
import { apiUrl, type Schemas } from '../../api/contract';
import { REQUEST_HEADERS } from '../../api/http';

export type HealthCheck = Schemas['CheckOut'];

export interface Health {
  ok: boolean;
  checks: Record<string, HealthCheck>;
  /** Parsing far behind uploads (an upload storm, too few workers), in a sentence; null when it keeps up. */
  backlog: string | null;
}

/** A parse lag past this is worth saying on every page: a flame graph will be late. */
export const BACKLOG_NOTICE_S = 120;

/** How far behind parsing is, when it is behind enough to say. */
export function backlogOf(queue: Schemas['QueueOut'] | null): string | null {
  const lag = queue?.oldest_queued_s ?? 0;
  if (queue === null || lag < BACKLOG_NOTICE_S) return null;
  const minutes = Math.round(lag / 60);
  const waiting = queue.queued === 1 ? '1 capture waits' : `${queue.queued} captures wait`;
  return `Parsing is behind: ${waiting} for a worker, the oldest for ${minutes} min. They are parsed in turn; more workers catch up sooner.`;
}

const CONSEQUENCES: Record<string, string> = {
  database: 'Nothing can be read or stored until it answers again; an embedded database is restarted by the console itself.',
  broker: 'Uploads are kept but wait to be parsed until it is back.',
  worker: 'Uploads are kept and will be parsed once a worker is running again.',
};

/** The parts that are down, one sentence each: what is wrong and what it means. */
export function healthProblems(health: Health): string[] {
  return Object.entries(health.checks)
    .filter(([, check]) => !check.ok)
    .map(([name, check]) => `${name}: ${check.detail}. ${CONSEQUENCES[name] ?? ''}`.trim());
}

/** The console's report (the same body whether it answered 200 or 503). */
export const healthOf = (report: Schemas['HealthOut']): Health => ({
  ok: report.status === 'ok',
  checks: { ...report.checks },
  backlog: backlogOf(report.queue),
});

export async function fetchHealth(): Promise<Health> {
  let res: Response;
  try {
    res = await fetch(apiUrl('/api/health'), { headers: REQUEST_HEADERS });
  } catch {
    return { ok: false, checks: { api: { ok: false, detail: 'the console is not answering' } }, backlog: null };
  }
  // A proxy in front of a stopped console answers with a page of its own, not the report.
  try {
    return healthOf((await res.json()) as Schemas['HealthOut']);
  } catch {
    return { ok: false, checks: { api: { ok: false, detail: `HTTP ${res.status} without a health report` } }, backlog: null };
  }
}
