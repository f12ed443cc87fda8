/**
 * The viewer's transport (api/http.ts `setTransport`): every GET is answered from the responses the
 * bundle embeds, keyed by bundleKey; nothing leaves the page. Writes are refused, since a bundle is a
 * record of what was exported, and a GET the bundle lacks is a 404 its caller shows like any other.
 */
import { ApiError, type Transport } from '../api/http';
import { bundleKey } from './bundleKey';

export const READ_ONLY_MESSAGE = 'this is a read-only bundle';

/**
 * Parameters that follow the window's width, not the data asked for: an exporter cannot know the
 * reader's screen, so it stores one answer and the nearest one stands in for another width.
 */
const LOOSE_PARAMETERS: readonly { path: RegExp; param: string }[] = [
  { path: /^\/api\/timeline$/, param: 'width' },
  { path: /^\/api\/metrics\/series\/\d+\/points$/, param: 'buckets' },
];

interface LooseKey {
  /** The key without the loose parameter. */
  rest: string;
  value: number;
}

function looseKey(key: string): LooseKey | null {
  const at = key.indexOf('?');
  const path = at < 0 ? key : key.slice(0, at);
  const rule = LOOSE_PARAMETERS.find((r) => r.path.test(path));
  if (!rule || at < 0) return null;
  const pairs = key.slice(at + 1).split('&');
  const prefix = `${rule.param}=`;
  const loose = pairs.find((p) => p.startsWith(prefix));
  const value = loose === undefined ? NaN : Number(loose.slice(prefix.length));
  if (!Number.isFinite(value)) return null;
  return { rest: `${path}?${pairs.filter((p) => p !== loose).join('&')}`, value };
}

/** Finds a stored answer: by its exact key, else by the nearest value of a loose parameter. */
export function responseFinder(responses: ReadonlyMap<string, unknown>): (key: string) => unknown {
  const byRest = new Map<string, { value: number; key: string }[]>();
  for (const key of responses.keys()) {
    const loose = looseKey(key);
    if (loose) byRest.set(loose.rest, [...(byRest.get(loose.rest) ?? []), { value: loose.value, key }]);
  }
  return (key) => {
    if (responses.has(key)) return responses.get(key);
    const loose = looseKey(key);
    const candidates = loose ? byRest.get(loose.rest) : undefined;
    if (!loose || !candidates) return undefined;
    const nearest = candidates.reduce((best, c) => (Math.abs(c.value - loose.value) < Math.abs(best.value - loose.value) ? c : best));
    return responses.get(nearest.key);
  };
}

function aborted(): DOMException {
  return new DOMException('The request was aborted.', 'AbortError');
}

/** `onMiss` hears the key of every GET the bundle cannot answer. */
export function replayTransport(responses: ReadonlyMap<string, unknown>, onMiss: (key: string) => void): Transport {
  const find = responseFinder(responses);
  return (url, init) => {
    if (init.signal?.aborted) return Promise.reject(aborted());
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET') return Promise.reject(new ApiError(405, `${READ_ONLY_MESSAGE}: ${method} ${url} cannot be sent from it.`));
    const key = bundleKey(url);
    const body = find(key);
    if (body === undefined) {
      onMiss(key);
      return Promise.reject(new ApiError(404, `not in this bundle: ${key}`));
    }
    return Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }));
  };
}
