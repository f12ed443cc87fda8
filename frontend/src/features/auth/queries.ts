import { queryOptions } from '@tanstack/react-query';
import { fetchMe, listPersonalTokens } from './api';

/** Who is signed in (null: nobody). Fresh until signing in or out changes it, or a 401 clears it. */
export const meQuery = () => queryOptions({ queryKey: ['auth', 'me'], queryFn: ({ signal }) => fetchMe(signal), staleTime: Infinity });

export const personalTokensQuery = () =>
  queryOptions({ queryKey: ['auth', 'tokens'], queryFn: ({ signal }) => listPersonalTokens(signal) });
