import { describe, expect, it } from 'vitest';
import { bundleKey } from './bundleKey';

/** The same cases as the exporter's Python twin: change both together. */
const CASES: [string, string][] = [
  ['/api/incidents/7', '/api/incidents/7'],
  ['/api/incidents/7?', '/api/incidents/7'],
  ['/api/flame?max_nodes=50000&captures=3%2C4', '/api/flame?captures=3,4&max_nodes=50000'],
  ['/api/flame?captures=3,4&max_nodes=50000', '/api/flame?captures=3,4&max_nodes=50000'],
  [
    '/api/timeline?incident=1&tracks=cpu%3Adb-7%3Acpu-clock%2Coffcpu%3Adb-7&start=2026-11-21T21%3A57%3A20.289523Z&end=2026-11-21T21%3A57%3A25.311784Z&width=1328',
    '/api/timeline?end=2026-11-21T21:57:25.311784Z&incident=1&start=2026-11-21T21:57:20.289523Z&tracks=cpu:db-7:cpu-clock,offcpu:db-7&width=1328',
  ],
  // Dotted diff keys sort as plain strings: "a.captures" < "b.captures" < "max_nodes" < "normalize".
  ['/api/diff?b.captures=2&a.captures=1&normalize=total&max_nodes=50000', '/api/diff?a.captures=1&b.captures=2&max_nodes=50000&normalize=total'],
  // A repeated key sorts by value; "+" and %20 are both a space; an empty value stays.
  ['/api/x?k=b&k=a&q=two+words&r=%20x&e=', '/api/x?e=&k=a&k=b&q=two words&r= x'],
  // Upper case sorts before lower case (code units, not locale).
  ['/api/x?b=1&B=2&a=3', '/api/x?B=2&a=3&b=1'],
  // Decoded, not re-encoded: a literal & or = in a value is written as it is.
  ['/api/events?name=a%26b%3Dc&captures=2', '/api/events?captures=2&name=a&b=c'],
  ['/api/metrics/series/12/points?start=2026-11-21T21%3A57%3A20.388000Z&buckets=1200', '/api/metrics/series/12/points?buckets=1200&start=2026-11-21T21:57:20.388000Z'],
  ['/api/threads?comm_regex=%5Epostgres%24&captures=1', '/api/threads?captures=1&comm_regex=^postgres$'],
  ['/api/flame?comm=%C3%A9t%C3%A9', '/api/flame?comm=été'],
  // An origin, as a Request's URL carries it, is dropped; a fragment too.
  ['http://127.0.0.1:8000/api/facets?captures=1#x', '/api/facets?captures=1'],
];

describe('bundleKey', () => {
  it.each(CASES)('%s', (url, key) => {
    expect(bundleKey(url)).toBe(key);
  });
});
