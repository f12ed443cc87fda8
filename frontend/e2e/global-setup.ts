/**
 * Sign in once before the specs, as the console's first admin (the test script starts the console
 * with that password), and keep the session cookie for every spec's page and API requests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { request, type FullConfig } from '@playwright/test';
import { ADMIN_STATE, e2eCredentials } from './session';

export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0]?.use.baseURL ?? 'http://127.0.0.1:8000';
  const { username, password } = e2eCredentials();
  const context = await request.newContext({ baseURL });
  const res = await context.post('/api/auth/login', { data: { username, password } });
  if (!res.ok()) throw new Error(`signing in as ${username} failed: ${res.status()} ${await res.text()}`);
  fs.mkdirSync(path.dirname(ADMIN_STATE), { recursive: true });
  await context.storageState({ path: ADMIN_STATE });
  await context.dispose();
}
