import { queryOptions } from '@tanstack/react-query';
import { listGuestLinks } from './api';

export const guestLinksQuery = (incident: number) =>
  queryOptions({ queryKey: ['guest-links', incident], queryFn: ({ signal }) => listGuestLinks(incident, signal) });
