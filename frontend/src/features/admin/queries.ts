import { queryOptions } from '@tanstack/react-query';
import { listUsers, readAudit } from './api';
import { auditQuery, type AuditFilters } from './auditFilters';

export const usersQuery = () => queryOptions({ queryKey: ['admin', 'users'], queryFn: ({ signal }) => listUsers(signal) });

export const auditEntriesQuery = (filters: AuditFilters) => {
  const query = auditQuery(filters);
  return queryOptions({ queryKey: ['admin', 'audit', query.toString()], queryFn: ({ signal }) => readAudit(query, signal) });
};
