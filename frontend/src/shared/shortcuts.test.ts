import { describe, expect, it } from 'vitest';
import { FLAME_SHORTCUTS } from '../features/flame/shortcuts';
import { HEATMAP_GRID_SHORTCUTS } from '../features/heatmap/shortcuts';
import { TIMELINE_SHORTCUTS } from '../features/timeline/shortcuts';
import { availableGroup, helpOrder, keyLabels, shortcutFor, type KeyPress, type ShortcutGroup } from './shortcuts';

const press = (key: string, mods: Partial<Omit<KeyPress, 'key'>> = {}): KeyPress => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe('shortcutFor', () => {
  it('finds the action of a key, whichever of its keys is pressed', () => {
    expect(shortcutFor(TIMELINE_SHORTCUTS, press('+'))?.action).toBe('zoomIn');
    expect(shortcutFor(TIMELINE_SHORTCUTS, press('='))?.action).toBe('zoomIn');
    expect(shortcutFor(TIMELINE_SHORTCUTS, press('_', { shiftKey: true }))?.action).toBe('zoomOut');
    expect(shortcutFor(TIMELINE_SHORTCUTS, press('x'))).toBeNull();
  });

  it('leaves Ctrl, Alt and Meta presses to the browser', () => {
    expect(shortcutFor(TIMELINE_SHORTCUTS, press('0', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(TIMELINE_SHORTCUTS, press('+', { metaKey: true }))).toBeNull();
    expect(shortcutFor(FLAME_SHORTCUTS, press('Escape', { altKey: true }))).toBeNull();
  });

  it('tells Shift+arrow (stretch) from arrow (move)', () => {
    expect(shortcutFor(HEATMAP_GRID_SHORTCUTS, press('ArrowRight'))?.action).toBe('move');
    expect(shortcutFor(HEATMAP_GRID_SHORTCUTS, press('ArrowRight', { shiftKey: true }))?.action).toBe('extend');
    // Keys that do not care about Shift match with or without it.
    expect(shortcutFor(HEATMAP_GRID_SHORTCUTS, press('Home', { shiftKey: true }))?.action).toBe('jump');
    expect(shortcutFor(HEATMAP_GRID_SHORTCUTS, press(' '))?.action).toBe('select');
  });
});

describe('the help', () => {
  it('names keys as they are printed on keyboards', () => {
    const extend = HEATMAP_GRID_SHORTCUTS.shortcuts.find((s) => s.action === 'extend');
    const select = HEATMAP_GRID_SHORTCUTS.shortcuts.find((s) => s.action === 'select');
    expect(extend && keyLabels(extend)).toEqual(['Shift+←', 'Shift+→', 'Shift+↑', 'Shift+↓']);
    expect(select && keyLabels(select)).toEqual(['Enter', 'Space']);
    expect(keyLabels({ action: 'x', keys: ['Escape', 'PageDown'], does: '' })).toEqual(['Esc', 'PgDn']);
  });

  it('lists the view first, then its parts, then what every view has', () => {
    const g = (title: string, place?: ShortcutGroup['place']): ShortcutGroup => ({ title, place, shortcuts: [] });
    const order = helpOrder([g('Share', 'everywhere'), g('Frame search'), g('Flame graph', 'view'), g('Grid')]);
    expect(order.map((x) => x.title)).toEqual(['Flame graph', 'Frame search', 'Grid', 'Share']);
  });

  it('leaves out what is not available now', () => {
    const shown = availableGroup(TIMELINE_SHORTCUTS, (action) => action !== 'annotate');
    expect(shown.shortcuts.map((s) => s.action)).not.toContain('annotate');
    expect(shown.shortcuts).toHaveLength(TIMELINE_SHORTCUTS.shortcuts.length - 1);
  });
});
