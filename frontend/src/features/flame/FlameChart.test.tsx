// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FlameNode, FrameKind } from '../../api/types';
import { FlameChart, type FlameChartProps } from './FlameChart';
import { HIGHLIGHT_COLOR } from './palette';

function n(name: string, value: number, children: FlameNode[] = [], kind: FrameKind = 'user'): FlameNode {
  return { name, value, samples: value, kind, children };
}

/** Frozen all the way down: the chart must never write to server data (it is cached and shared). */
function deepFreeze(node: FlameNode): FlameNode {
  for (const c of node.children) deepFreeze(c);
  Object.freeze(node.children);
  return Object.freeze(node);
}

const tree = (): FlameNode =>
  deepFreeze(n('all', 100, [n('app', 60, [n('main', 60, [n('func_a', 40), n('func_b', 20)])], 'process'), n('idle', 40, [], 'process')], 'root'));

const WIDTH = 1000;
let root: Root;
let host: HTMLDivElement;
const errors: unknown[] = [];
const onError = (e: ErrorEvent) => errors.push(e.error);

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
  // jsdom has no SVG transform lists, which d3 reads when it moves an existing frame; an empty one
  // makes the move a jump (positions are not what these tests check).
  Object.defineProperty(SVGElement.prototype, 'transform', { configurable: true, get: () => ({ baseVal: { consolidate: () => null } }) });
});

afterAll(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(HTMLElement.prototype, 'clientWidth');
  // The SVG transform stub stays: d3's last transitions may still run after the tests.
});

beforeEach(() => {
  errors.length = 0;
  window.addEventListener('error', onError);
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});

afterEach(() => {
  act(() => root.unmount());
  window.removeEventListener('error', onError);
  document.body.replaceChildren();
});

const props = (over: Partial<FlameChartProps>): FlameChartProps => ({
  tree: tree(),
  unit: 'samples',
  search: '',
  zoom: [],
  loading: false,
  onZoom: () => undefined,
  ...over,
});

const frame = (name: string) => host.querySelector(`g.frame[name="${name}"]`);
const frameNames = () => [...host.querySelectorAll('g.frame')].map((g) => g.getAttribute('name'));

describe('FlameChart', () => {
  it('draws the tree and reports clicks as zoom paths without touching the data', () => {
    const onZoom = vi.fn();
    const p = props({ onZoom });
    act(() => root.render(<FlameChart {...p} />));
    expect(frameNames()).toEqual(expect.arrayContaining(['all', 'app', 'main', 'func_a', 'func_b', 'idle']));
    expect(Number(frame('app')?.getAttribute('width'))).toBeCloseTo(WIDTH * 0.6);

    act(() => {
      frame('func_b')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    });
    expect(onZoom).toHaveBeenCalledExactlyOnceWith(['app', 'main', 'func_b']);
    // d3-flame-graph's own click-zoom would have written flags onto the frozen data and thrown.
    expect(errors).toEqual([]);
    expect(p.tree).toEqual(tree());
  });

  it('draws a zoom as the frame full width over its faded ancestors', () => {
    const t = tree();
    act(() => root.render(<FlameChart {...props({ tree: t })} />));
    act(() => root.render(<FlameChart {...props({ tree: t, zoom: ['app', 'main'] })} />));
    expect(Number(frame('main')?.getAttribute('width'))).toBe(WIDTH);
    expect(Number(frame('func_a')?.getAttribute('width'))).toBeCloseTo((WIDTH * 2) / 3);
    expect(frame('app')?.getAttribute('class')).toBe('frame fade');
    expect(frame('idle')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('highlights search matches by recolouring, and keeps the same elements', () => {
    const t = tree();
    act(() => root.render(<FlameChart {...props({ tree: t })} />));
    const before = frame('func_a');
    act(() => root.render(<FlameChart {...props({ tree: t, search: 'FUNC_' })} />));
    expect(frame('func_a')).toBe(before);
    expect(frame('func_a')?.querySelector('rect')?.getAttribute('fill')).toBe(HIGHLIGHT_COLOR);
    expect(frame('main')?.querySelector('rect')?.getAttribute('fill')).not.toBe(HIGHLIGHT_COLOR);
    act(() => root.render(<FlameChart {...props({ tree: t, search: '' })} />));
    expect(frame('func_a')?.querySelector('rect')?.getAttribute('fill')).not.toBe(HIGHLIGHT_COLOR);
  });

  it('waits a moment for loading detail, else draws without it and then with it', () => {
    vi.useFakeTimers();
    try {
      const t = tree();
      const detailed = deepFreeze(n('all', 100, [n('app', 60, [n('main', 60, [n('func_a', 40), n('func_b', 19), n('tiny', 1)])], 'process')], 'root'));
      act(() => root.render(<FlameChart {...props({ tree: t })} />));
      // Detail in time: one draw, with it.
      act(() => root.render(<FlameChart {...props({ tree: t, zoom: ['app'], loading: true })} />));
      expect(Number(frame('app')?.getAttribute('width'))).toBeCloseTo(WIDTH * 0.6);
      act(() => root.render(<FlameChart {...props({ tree: detailed, zoom: ['app'] })} />));
      expect(Number(frame('app')?.getAttribute('width'))).toBe(WIDTH);
      expect(frame('tiny')).not.toBeNull();
      // Detail late: the zoom is drawn from what is there, then again in the same elements.
      act(() => root.render(<FlameChart {...props({ tree: t, zoom: [] })} />));
      act(() => root.render(<FlameChart {...props({ tree: t, zoom: ['app'], loading: true })} />));
      act(() => {
        vi.advanceTimersByTime(200);
      });
      expect(Number(frame('app')?.getAttribute('width'))).toBe(WIDTH);
      expect(frame('tiny')).toBeNull();
      const main = frame('main');
      act(() => root.render(<FlameChart {...props({ tree: detailed, zoom: ['app'] })} />));
      expect(frame('tiny')).not.toBeNull();
      expect(frame('main')).toBe(main);
    } finally {
      vi.useRealTimers();
    }
  });

  it('zooms to the parent of a (deeper) frame, and draws a deep zoom under one stand-in for its outer ancestors', () => {
    // all > app > f0 > … > f299 > (deeper): the server's answer for a stack past its depth budget.
    let chain: FlameNode = { ...n('(deeper)', 3, [], 'deeper'), folded_frames: 99_000 };
    for (let i = 299; i >= 0; i -= 1) chain = { ...n(`f${i}`, 3, [chain]), truncated: true };
    const t = deepFreeze(n('all', 3, [n('app', 3, [chain], 'process')], 'root'));
    const onZoom = vi.fn();
    act(() => root.render(<FlameChart {...props({ tree: t, onZoom })} />));
    expect(host.querySelectorAll('g.frame')).toHaveLength(303);
    act(() => {
      frame('(deeper)')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    });
    const deepest = ['app', ...Array.from({ length: 300 }, (_, i) => `f${i}`)];
    expect(onZoom).toHaveBeenLastCalledWith(deepest);

    act(() => root.render(<FlameChart {...props({ tree: t, onZoom, zoom: deepest })} />));
    // all, one stand-in for app > f0 … f274, the 24 ancestors above f299, f299 and (deeper).
    expect(host.querySelectorAll('g.frame')).toHaveLength(1 + 1 + 24 + 2);
    const standIn = frame('⋯ 276 frames');
    expect(standIn?.getAttribute('class')).toBe('frame fade');
    act(() => {
      standIn?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    });
    expect(onZoom).toHaveBeenLastCalledWith(deepest.slice(0, 276));
    expect(errors).toEqual([]);
  });
});
