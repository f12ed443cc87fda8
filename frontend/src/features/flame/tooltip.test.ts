// @vitest-environment jsdom
import { select } from 'd3';
import flamegraph, { type FlameFrame } from 'd3-flame-graph';
import { afterEach, describe, expect, it } from 'vitest';
import type { FlameNode } from '../../api/types';
import { findFrame } from './frames';
import { createFlameTooltip, renderTooltip, tooltipContent } from './tooltip';

const EVIL = '<script>alert(1)</script>';
const IMG = '<img src=x onerror="window.__pwned=1">';
const CPP = 'std::ostream& std::operator<< <std::char_traits<char> >(std::ostream&, char const*)';

function leaf(name: string, value: number): FlameNode {
  return { name, value, samples: value, kind: 'user', children: [] };
}

const tree = (): FlameNode => ({
  name: 'all',
  value: 100,
  samples: 100,
  kind: 'root',
  children: [
    {
      name: 'app',
      value: 100,
      samples: 100,
      kind: 'process',
      children: [leaf(EVIL, 50), leaf(IMG, 30), leaf(CPP, 20)],
      truncated: true,
    },
  ],
});

afterEach(() => {
  document.body.replaceChildren();
});

describe('tooltipContent', () => {
  it('gives name, value, and shares of total and parent', () => {
    const root = tree();
    const app = root.children[0];
    const evil = app?.children[0];
    if (!app || !evil) throw new Error('fixture');
    const c = tooltipContent(evil, app, root, 'samples');
    expect(c.title).toBe(EVIL);
    expect(c.rows).toEqual([
      { label: 'kind', value: 'user' },
      { label: 'samples', value: '50 samples' },
      { label: 'of total', value: '50.0%' },
      { label: 'of parent', value: '50.0%' },
    ]);
  });

  it('shows time units and notes pruned detail', () => {
    const root = tree();
    const app = root.children[0];
    if (!app) throw new Error('fixture');
    const c = tooltipContent({ ...app, value: 2_000_000 }, root, { ...root, value: 4_000_000 }, 'ns');
    expect(c.rows).toContainEqual({ label: 'value', value: '2 ms' });
    expect(c.rows).toContainEqual({ label: 'samples', value: '100' });
    expect(c.rows.some((r) => r.label === 'detail')).toBe(true);
  });

  it('says how many frames a (deeper) frame folds and how to load them', () => {
    const root = tree();
    const deeper: FlameNode = { name: '(deeper)', value: 100, samples: 100, kind: 'deeper', children: [], folded_frames: 99_489 };
    const c = tooltipContent(deeper, root, root, 'samples');
    expect(c.rows).toContainEqual({ label: 'kind', value: '(deeper): past the depth budget' });
    expect(c.rows).toContainEqual({ label: 'folded', value: '99,489 frames past the depth budget — click to load the next levels' });
  });
});

describe('frame names are text, never markup', () => {
  it('renderTooltip writes names as text', () => {
    const el = document.createElement('div');
    renderTooltip(el, { title: IMG, rows: [{ label: 'x', value: EVIL }] });
    expect(el.querySelector('img, script')).toBeNull();
    expect(el.textContent).toContain(IMG);
    expect(el.textContent).toContain(EVIL);
  });

  it('the chart labels and our tooltip keep hostile names inert', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const tip = createFlameTooltip(() => 'samples');
    const chart = flamegraph<FlameNode>().width(1000).minFrameSize(1).transitionDuration(0).tooltip(tip);
    select(host).datum(tree()).call(chart);
    // Labels are set at the end of a zero-length transition.
    await new Promise((r) => setTimeout(r, 100));

    expect(host.querySelector('script, img')).toBeNull();
    const labels = [...host.querySelectorAll('.d3-flame-graph-label')].map((l) => l.textContent);
    expect(labels).toContain(EVIL);
    expect(labels).toContain(CPP);

    const root = select(host).datum() as FlameFrame<FlameNode>;
    const frame = findFrame(root, ['app', IMG]);
    expect(frame.data.name).toBe(IMG);
    tip.show(new MouseEvent('mouseover', { clientX: 10, clientY: 10 }), frame);
    const tipEl = document.querySelector('.flame-tip');
    expect(tipEl?.querySelector('img, script')).toBeNull();
    expect(tipEl?.querySelector('.flame-tip__name')?.textContent).toBe(IMG);
    expect((window as Window & { __pwned?: number }).__pwned).toBeUndefined();

    chart.destroy();
    expect(document.querySelector('.flame-tip')).toBeNull();
  });
});
