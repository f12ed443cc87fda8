// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { apiUrl, type ApiUrl, type RouteOf } from '../api/contract';
import { ApiError, getJson, postJson, setTransport } from '../api/http';
import { currentMisses, recordMiss } from './misses';
import { replayTransport } from './replayTransport';

/** A URL written by hand, its query in whatever order and encoding the test needs. */
const asked = (url: string) => url as ApiUrl<RouteOf<'get'>>;

const responses = new Map<string, unknown>([
  ['/api/incidents/4', { id: 4, title: 'p99 stalls' }],
  ['/api/flame?captures=3,4&max_nodes=50000', { total_samples: 120 }],
  ['/api/timeline?end=E&incident=4&start=S&tracks=cpu:h:c,offcpu:h&width=1328', { answered: 1328 }],
  ['/api/timeline?end=E&incident=4&start=S&tracks=cpu:h:c,offcpu:h&width=400', { answered: 400 }],
  ['/api/metrics/series/9/points?buckets=1200&end=E&start=S', { answered: 1200 }],
]);

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const e: unknown = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return e;
}

describe('the replay transport, behind api/http', () => {
  setTransport(replayTransport(responses, recordMiss));

  it('answers GETs from the bundle however the URL orders and encodes its query', async () => {
    expect(await getJson(asked('/api/incidents/4'))).toEqual({ id: 4, title: 'p99 stalls' });
    expect(await getJson(asked('/api/flame?max_nodes=50000&captures=3%2C4'))).toEqual({ total_samples: 120 });
  });

  it('stands the nearest stored width in for a window-sized one, and nothing else', async () => {
    const timeline = (width: number, tracks = 'cpu%3Ah%3Ac%2Coffcpu%3Ah') =>
      getJson(asked(`/api/timeline?incident=4&tracks=${tracks}&start=S&end=E&width=${width}`));
    expect(await timeline(1328)).toEqual({ answered: 1328 });
    expect(await timeline(1100)).toEqual({ answered: 1328 });
    expect(await timeline(200)).toEqual({ answered: 400 });
    expect(await getJson(asked('/api/metrics/series/9/points?buckets=10&start=S&end=E'))).toEqual({ answered: 1200 });
    // Other parameters must match: another track list is a miss.
    const other = await rejection(timeline(1328, 'cpu%3Ah%3Ac'));
    expect(other.status).toBe(404);
  });

  it('refuses writes and reports misses', async () => {
    const write = await rejection(postJson(apiUrl('/api/incidents/{incident_id}/annotations', { incident_id: 4 }), { ts: '2026-11-21T08:00:00Z', text: 'x' }));
    expect(write.status).toBe(405);
    expect(write.message).toMatch(/^this is a read-only bundle: POST \/api\/incidents\/4\/annotations/);

    const miss = await rejection(getJson(asked('/api/facets?source=off-cpu&captures=3%2C4')));
    expect(miss.status).toBe(404);
    expect(miss.message).toBe('not in this bundle: /api/facets?captures=3,4&source=off-cpu');
    expect(window.__stallscopeBundleMisses).toEqual(['/api/timeline?end=E&incident=4&start=S&tracks=cpu:h:c&width=1328', '/api/facets?captures=3,4&source=off-cpu']);
    expect(currentMisses()).toHaveLength(2);
  });

  it('keeps an aborted request an abort', async () => {
    const controller = new AbortController();
    controller.abort();
    const e: unknown = await getJson(asked('/api/incidents/4'), controller.signal).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DOMException);
    expect((e as DOMException).name).toBe('AbortError');
  });
});
