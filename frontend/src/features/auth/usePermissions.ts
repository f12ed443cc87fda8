import { useQuery } from '@tanstack/react-query';
import type { Me } from './api';
import { permissionsOf, type Permissions } from './permissions';
import { meQuery } from './queries';

/** The signed-in principal (loaded by the auth gate before any page renders). */
export function useMe(): Me | null {
  return useQuery(meQuery()).data ?? null;
}

/** What the signed-in principal may do: hide or disable (with `whyNot` as the title) what it may not. */
export function usePermissions(): Permissions {
  return permissionsOf(useMe());
}
