/**
 * The console's own health (`GET /api/health`), read as what an engineer needs to know: which part is
 * down and what that means for their uploads. The endpoint answers 503 with the same body when a part
 * is down, so the body is read whatever the status.
 */
import { REQUEST_HEADERS } from '../../api/http';

export interface HealthCheck {
  ok: boolean;
  detail: string;
}

export interface Health {
  ok: boolean;
  checks: Record<string, HealthCheck>;
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

export function decodeHealth(body: unknown): Health {
  const checks: Record<string, HealthCheck> = {};
  const raw = typeof body === 'object' && body !== null && 'checks' in body ? body.checks : null;
  if (typeof raw === 'object' && raw !== null) {
    for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof value !== 'object' || value === null) continue;
      const check = value as Record<string, unknown>;
      checks[name] = { ok: check.ok === true, detail: typeof check.detail === 'string' ? check.detail : 'unknown' };
    }
  }
  const status = typeof body === 'object' && body !== null && 'status' in body ? body.status : null;
  return { ok: status === 'ok', checks };
}

export async function fetchHealth(): Promise<Health> {
  let res: Response;
  try {
    res = await fetch('/api/health', { headers: REQUEST_HEADERS });
  } catch {
    return { ok: false, checks: { api: { ok: false, detail: 'the console is not answering' } } };
  }
  try {
    return decodeHealth(await res.json());
  } catch {
    return { ok: false, checks: { api: { ok: false, detail: `HTTP ${res.status} without a health report` } } };
  }
}
