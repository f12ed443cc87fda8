/** Who the end-to-end specs are: the console's first admin, whose password the test script chose. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The signed-in admin's cookies, written by the global set-up and loaded by every spec. */
export const ADMIN_STATE = path.join(here, '.auth', 'admin.json');

export function e2eCredentials(): { username: string; password: string } {
  const password = process.env.STALLSCOPE_E2E_PASSWORD;
  if (!password) throw new Error('STALLSCOPE_E2E_PASSWORD is not set: run the specs through scripts/e2e');
  return { username: process.env.STALLSCOPE_E2E_USER ?? 'admin', password };
}
