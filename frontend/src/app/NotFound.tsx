import { Link } from 'react-router';
import { EmptyState } from '../shared/components/EmptyState';

export function NotFound() {
  return (
    <EmptyState title="Nothing here">
      <Link to="/">Back to incidents</Link>
    </EmptyState>
  );
}
