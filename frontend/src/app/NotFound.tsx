import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../shared/components/EmptyState';

/** The console's "not found": what is missing, why if known, and the way back to the incidents. */
export function NotFound({ title = 'Nothing here', children }: { title?: string; children?: ReactNode }) {
  return (
    <div data-testid="not-found">
      <EmptyState title={title}>
        {children}
        <p>
          <Link to="/" className="btn">
            Back to incidents
          </Link>
        </p>
      </EmptyState>
    </div>
  );
}
