import { useQuery } from '@tanstack/react-query';
import { fetchHealth, healthProblems } from './health';
import './health.css';

const POLL_MS = 15_000;

/** Says, on every page, when a part of the console is down or parsing is far behind; nothing while all is well. */
export function HealthBanner() {
  const health = useQuery({ queryKey: ['health'], queryFn: fetchHealth, refetchInterval: POLL_MS, staleTime: 0 });
  if (!health.data) return null;
  if (health.data.ok) {
    return health.data.backlog === null ? null : (
      <div className="banner health-banner" role="status" data-testid="backlog-banner">
        {health.data.backlog}
      </div>
    );
  }
  const problems = healthProblems(health.data);
  return (
    <div className="banner banner--error health-banner" role="alert" data-testid="health-banner">
      <div>
        <strong>The console is degraded. </strong>
        {problems.map((p) => (
          <span key={p} className="health-banner__problem">
            {p}
          </span>
        ))}
      </div>
    </div>
  );
}
