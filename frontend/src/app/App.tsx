import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { makeQueryClient } from './queryClient';
import { router } from './router';
import { ShortcutHelp } from '../shared/components/ShortcutHelp';

export function App() {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <ShortcutHelp>
        <RouterProvider router={router} />
      </ShortcutHelp>
    </QueryClientProvider>
  );
}
