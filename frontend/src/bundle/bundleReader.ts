/**
 * Who reads a bundle: a viewer (read, nothing else), so the console's pages hide or disable what
 * they hide from read-only people, and no write is offered that the bundle would only refuse.
 */
import type { Me } from '../features/auth/api';

export const BUNDLE_READER: Me = {
  name: 'bundle reader',
  role: 'viewer',
  via: 'session',
  user_id: null,
  incident_id: null,
  capture_ids: null,
  views: null,
  permissions: ['read'],
  expires_at: null,
};
