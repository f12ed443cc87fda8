// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIGHLIGHT_COLOR } from '../flame/palette';
import type { DiffNode } from './api';
import { DiffChart, type DiffChartProps } from './DiffChart';
import { diffColor, OUTLINE } from './colors';
import { sideTree } from './view';

function n(name: string, a: number, b: number, children: DiffNode[] = [], kind: DiffNode['kind'] = 'user'): DiffNode {
  return { name, kind, value: b, samples: 0, a, b, delta: b - a, share_delta: 0, children };
}

function deepFreeze(node: DiffNode): DiffNode {
  for (const c of node.children) deepFreeze(c);
  Object.freeze(node.children);
  return Object.freeze(node);
}

/** scan doubled, sort halved, compress is new, parse is gone. */
const tree = (): DiffNode =>
  deepFreeze(
    n('all', 10, 10, [n('db', 10, 10, [n('main', 10, 10, [n('scan', 2, 4), n('sort', 4, 2), n('compress', 0, 4), n('parse', 4, 0)])], 'process')], 'root'),
  );

const WIDTH = 1000;
let root: Root;
let host: HTMLDivElement;

beforeAll(() => {
  Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => WIDTH });
  Object.defineProperty(SVGElement.prototype, 'transform', { configurable: true, get: () => ({ baseVal: { consolidate: () => null } }) });
});

afterAll(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
});

beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  document.body.replaceChildren();
});

const props = (over: Partial<DiffChartProps>): DiffChartProps => ({
  tree: tree(),
  side: 'b',
  largest: 4,
  totals: { a: 10, b: 10, scale: 1, normalize: 'total', unit: 'samples' },
  search: '',
  zoom: [],
  onZoom: () => undefined,
  label: 'diff',
  ...over,
});

const rect = (name: string) => host.querySelector<SVGRectElement>(`g.frame[name="${name}"] rect`);
const stroke = (name: string) => rect(name)?.style.stroke;

describe('DiffChart', () => {
  it('colours B’s frames by change and outlines frames new in B', () => {
    const t = tree();
    act(() => root.render(<DiffChart {...props({ tree: t })} />));
    const scan = t.children[0]?.children[0]?.children[0];
    expect(scan?.name).toBe('scan');
    expect(rect('scan')?.getAttribute('fill')).toBe(diffColor(scan as DiffNode, 'b', 4));
    expect(rect('scan')?.getAttribute('fill')).toMatch(/^hsl\(2 /);
    expect(rect('sort')?.getAttribute('fill')).toMatch(/^hsl\(214 /);
    expect(stroke('compress')).toBe(OUTLINE);
    expect(stroke('scan')).toBe('');
    // Gone in B: nothing to draw in B's view.
    expect(rect('parse')).toBeNull();
  });

  it('draws A’s view with the frames that vanished, outlined, and none of the new ones', () => {
    const t = sideTree(tree(), 'a');
    act(() => root.render(<DiffChart {...props({ tree: t, side: 'a' })} />));
    expect(stroke('parse')).toBe(OUTLINE);
    expect(Number(host.querySelector('g.frame[name="parse"]')?.getAttribute('width'))).toBeCloseTo(WIDTH * 0.4);
    // Drawn at its final width at once, not grown by a transition.
    expect(Number(rect('parse')?.getAttribute('width'))).toBeCloseTo(WIDTH * 0.4);
    expect(rect('compress')).toBeNull();
  });

  it('highlights search matches, then gives the diff colours back', () => {
    const t = tree();
    act(() => root.render(<DiffChart {...props({ tree: t })} />));
    act(() => root.render(<DiffChart {...props({ tree: t, search: 'SCAN' })} />));
    expect(rect('scan')?.getAttribute('fill')).toBe(HIGHLIGHT_COLOR);
    act(() => root.render(<DiffChart {...props({ tree: t, search: '' })} />));
    expect(rect('scan')?.getAttribute('fill')).toMatch(/^hsl\(2 /);
  });

  it('reports clicks as zoom paths and never writes to the data', () => {
    const onZoom = vi.fn();
    const t = tree();
    act(() => root.render(<DiffChart {...props({ tree: t, onZoom })} />));
    act(() => {
      host.querySelector('g.frame[name="sort"]')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    });
    expect(onZoom).toHaveBeenCalledExactlyOnceWith(['db', 'main', 'sort']);
    act(() => root.render(<DiffChart {...props({ tree: t, zoom: ['db', 'main', 'sort'] })} />));
    expect(Number(host.querySelector('g.frame[name="sort"]')?.getAttribute('width'))).toBe(WIDTH);
    expect(t).toEqual(tree());
  });
});
