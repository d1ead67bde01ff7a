import { describe, expect, it } from 'vitest';
import {
  BOTTOM_MIN, CENTRE_CHROME, CENTRE_MIN, EDITOR_MIN, FLOW_BAR, FLOW_MAX, FLOW_MIN, MESSAGES_MIN, SKILLS_DEFAULT, SKILLS_MIN, SPLIT, TABS_BAR,
  bottomRange, fitHeights, fitWidths, flowRange, keySize, leftRange, messagesRange, sanitize, stepsMin, toFraction,
} from './panes';

describe('fitHeights', () => {
  const cases: { name: string; height: number; layout: Parameters<typeof fitHeights>[1] }[] = [
    { name: 'a laptop window with the trust banner (1248×728 less the bars)', height: 620, layout: {} },
    { name: 'a laptop window, big panes remembered from a big screen', height: 620, layout: { flow_height: 0.5, bottom_height: 0.6 } },
    { name: 'a tiny window', height: 300, layout: { flow_height: 0.4, bottom_height: 0.4 } },
    { name: 'a big screen', height: 1000, layout: {} },
    { name: 'both collapsed', height: 620, layout: { flow_collapsed: true, bottom_collapsed: true } },
  ];
  for (const c of cases) {
    it(`keeps the step list its rows: ${c.name}`, () => {
      const h = fitHeights(c.height, c.layout);
      const splitters = (c.layout.flow_collapsed ? 0 : SPLIT) + (c.layout.bottom_collapsed ? 0 : SPLIT);
      expect(h.flow + h.bottom + h.steps + splitters + CENTRE_CHROME).toBe(Math.max(c.height, CENTRE_CHROME + splitters + h.flow + h.bottom));
      if (c.height >= CENTRE_CHROME + stepsMin() + FLOW_MIN + BOTTOM_MIN + 2 * SPLIT) expect(h.steps).toBeGreaterThanOrEqual(stepsMin());
      expect(h.flow).toBeGreaterThanOrEqual(c.layout.flow_collapsed ? FLOW_BAR : FLOW_MIN);
      expect(h.flow).toBeLessThanOrEqual(FLOW_MAX);
      expect(h.bottom).toBeGreaterThanOrEqual(c.layout.bottom_collapsed ? TABS_BAR : BOTTOM_MIN);
    });
  }
  it('gives the step list what collapsed panes free', () => {
    const open = fitHeights(620, {});
    const closed = fitHeights(620, { flow_collapsed: true, bottom_collapsed: true });
    expect(closed.steps).toBeGreaterThan(open.steps + 150);
    expect(closed).toMatchObject({ flow: FLOW_BAR, bottom: TABS_BAR });
  });
  it('grows on a bigger window', () => {
    expect(fitHeights(900, {}).steps).toBeGreaterThan(fitHeights(620, {}).steps);
  });
});

describe('fitWidths', () => {
  it('uses the remembered widths when they fit', () => {
    expect(fitWidths(1800, { skills_width: 333, messages_width: 444 }, false)).toEqual({ left: 333, messages: 444 });
    expect(fitWidths(1800, {}, false).left).toBe(SKILLS_DEFAULT);
  });
  it('keeps the centre its minimum: the side panes give way in proportion', () => {
    const w = fitWidths(1248, { skills_width: 600, messages_width: 600 }, false);
    expect(w.left + w.messages + 2 * SPLIT + CENTRE_MIN).toBeLessThanOrEqual(1248);
    expect(w.left).toBeGreaterThanOrEqual(SKILLS_MIN);
    expect(w.messages).toBeGreaterThanOrEqual(MESSAGES_MIN);
  });
  it('the editor has its own width and minimum', () => {
    expect(fitWidths(1800, { skills_width: 250, editor_width: 700 }, true).left).toBe(700);
    expect(fitWidths(1800, { editor_width: 10 }, true).left).toBe(EDITOR_MIN);
  });
  it('never goes below the minimums, even on a window too small for them', () => {
    expect(fitWidths(500, {}, false)).toEqual({ left: SKILLS_MIN, messages: MESSAGES_MIN });
  });
});

describe('ranges and keys', () => {
  it('a splitter stops where another pane would lose its minimum', () => {
    const r = flowRange(620, 150);
    expect(r.min).toBe(FLOW_MIN);
    expect(r.max).toBe(Math.min(FLOW_MAX, 620 - CENTRE_CHROME - stepsMin() - 2 * SPLIT - 150));
    expect(bottomRange(620, 100).max).toBe(620 - CENTRE_CHROME - stepsMin() - 2 * SPLIT - 100);
    expect(leftRange(1248, 400, false)).toEqual({ min: SKILLS_MIN, max: 1248 - CENTRE_MIN - 2 * SPLIT - 400 });
    expect(messagesRange(1248, 280).max).toBe(1248 - CENTRE_MIN - 2 * SPLIT - 280);
    expect(flowRange(100, 500).max).toBe(FLOW_MIN); // no room: the minimum, never less
  });
  it.each([
    ['ArrowDown', false, 'down', 116],
    ['ArrowUp', false, 'down', 84],
    ['ArrowDown', true, 'down', 164],
    ['ArrowUp', false, 'up', 116],
    ['ArrowLeft', false, 'left', 116],
    ['ArrowRight', false, 'right', 116],
    ['Home', false, 'down', 64],
    ['End', false, 'down', 200],
    ['a', false, 'down', null],
  ] as const)('%s (shift %s) on a pane growing %s → %s', (key, shift, grows, want) => {
    expect(keySize(key, shift, 100, { min: 64, max: 200 }, grows)).toBe(want);
  });
  it('clamps keys to the range', () => {
    expect(keySize('ArrowDown', true, 190, { min: 64, max: 200 }, 'down')).toBe(200);
    expect(keySize('ArrowUp', true, 70, { min: 64, max: 200 }, 'down')).toBe(64);
  });
  it('keeps heights as fractions the backend accepts', () => {
    expect(toFraction(155, 620)).toBe(0.25);
    expect(toFraction(10000, 620)).toBe(0.9);
    expect(toFraction(0, 620)).toBe(0.01);
    expect(toFraction(100, 0)).toBe(0);
  });
});

describe('sanitize', () => {
  it('drops what the backend would refuse and keeps the rest', () => {
    expect(sanitize({ skills_width: 300.4, messages_width: -1, flow_height: 2, bottom_height: 0.3, flow_collapsed: true, bottom_collapsed: false, trust_read: 'x', agent_context: true }))
      .toEqual({ skills_width: 300, bottom_height: 0.3, flow_collapsed: true, trust_read: 'x', agent_context: true });
    expect(sanitize(null)).toEqual({});
    expect(sanitize({ editor_width: Number.NaN, trust_read: 'y'.repeat(300), agent_context: false })).toEqual({});
  });
});
