/** The viewer: the console's pages over the bundle's embedded answers, read by BUNDLE_READER. */
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { makeQueryClient } from '../app/queryClient';
import { meQuery } from '../features/auth/queries';
import type { BundleData } from './bundleData';
import { BUNDLE_READER } from './bundleReader';
import { bundleRouter } from './bundleRouter';
import { ShortcutHelp } from '../shared/components/ShortcutHelp';

export function BundleApp({ data }: { data: BundleData }) {
  const [client] = useState(() => {
    const c = makeQueryClient();
    // Who-am-I is known, not asked: no bundle holds it.
    c.setQueryData(meQuery().queryKey, BUNDLE_READER);
    return c;
  });
  const [router] = useState(() => bundleRouter(data));
  return (
    <QueryClientProvider client={client}>
      <ShortcutHelp>
        <RouterProvider router={router} />
      </ShortcutHelp>
    </QueryClientProvider>
  );
}

/** What the page shows when it holds no bundle, or one it cannot read. */
export function BundleFatal({ message }: { message: string }) {
  return (
    <main className="bundle-fatal">
      <h1>Stallscope bundle</h1>
      <p className="banner banner--error" role="alert">
        {message}
      </p>
    </main>
  );
}
