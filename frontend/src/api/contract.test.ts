import { describe, expect, it } from 'vitest';
import { apiUrl, membersOf, routeQuery } from './contract';

describe('apiUrl', () => {
  it('fills the route’s path parameters, URI-encoded', () => {
    expect(apiUrl('/api/captures/{capture_id}', { capture_id: 4 })).toBe('/api/captures/4');
    expect(apiUrl('/api/guest/{secret}', { secret: 'ssg_a/b?c' })).toBe('/api/guest/ssg_a%2Fb%3Fc');
    expect(apiUrl('/api/incidents/{incident_id}/findings/{finding_id}/verdict', { incident_id: 3, finding_id: 'mmap lock' })).toBe(
      '/api/incidents/3/findings/mmap%20lock/verdict',
    );
  });

  it('adds the query as URLSearchParams writes it, and nothing when it is empty', () => {
    const q = routeQuery<'/api/heatmap/streams'>({ captures: '1,2' });
    expect(apiUrl('/api/heatmap/streams', q)).toBe('/api/heatmap/streams?captures=1%2C2');
    expect(apiUrl('/api/incidents', routeQuery<'/api/incidents'>())).toBe('/api/incidents');
  });

  it('refuses a path parameter it was not given rather than sending a literal {name}', () => {
    expect(() => apiUrl('/api/captures/{capture_id}', {} as { capture_id: number })).toThrow('{capture_id}');
  });
});

describe('routeQuery', () => {
  it('keeps the order of its first parameters and leaves out an undefined one', () => {
    const q = routeQuery<'/api/flame'>({ captures: '3', event: undefined, comm: 'a&b' });
    q.set('pid', '7');
    expect(q.toString()).toBe('captures=3&comm=a%26b&pid=7');
  });
});

describe('membersOf', () => {
  it('lists a union’s members in the order written', () => {
    expect(membersOf<'b' | 'a'>({ b: true, a: true })).toEqual(['b', 'a']);
  });
});
