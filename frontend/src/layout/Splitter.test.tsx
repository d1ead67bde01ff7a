import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { Splitter } from './Splitter';

afterEach(() => { vi.useRealTimers(); localStorage.clear(); });

function splitter(extra: Partial<Parameters<typeof Splitter>[0]> = {}) {
  const props = { onResize: vi.fn(), onCommit: vi.fn(), onReset: vi.fn(), onCollapse: vi.fn(), ...extra };
  render(<Splitter axis="y" grows="up" size={120} range={{ min: 96, max: 300 }} label="Resize the bottom panel" testId="sp" {...props} />);
  return { ...props, el: screen.getByTestId('sp') };
}

describe('Splitter', () => {
  it('is a focusable separator that says its size and range', () => {
    const { el } = splitter();
    expect(el.getAttribute('role')).toBe('separator');
    expect(el.getAttribute('aria-orientation')).toBe('horizontal');
    expect(el.getAttribute('aria-valuenow')).toBe('120');
    expect(el.getAttribute('aria-valuemin')).toBe('96');
    expect(el.getAttribute('aria-valuemax')).toBe('300');
    expect(el.tabIndex).toBe(0);
  });
  it('drags: up makes a pane that grows up bigger, within its range, and commits once at the end', () => {
    const { el, onResize, onCommit } = splitter();
    fireEvent.pointerDown(el, { button: 0, pointerId: 1, clientY: 500 });
    fireEvent.pointerMove(el, { pointerId: 1, clientY: 460 });
    expect(onResize).toHaveBeenLastCalledWith(160);
    fireEvent.pointerMove(el, { pointerId: 1, clientY: 0 });
    expect(onResize).toHaveBeenLastCalledWith(300);
    fireEvent.pointerMove(el, { pointerId: 2, clientY: 900 }); // another pointer: ignored
    expect(onResize).toHaveBeenLastCalledWith(300);
    expect(onCommit).not.toHaveBeenCalled();
    fireEvent.pointerUp(el, { pointerId: 1, clientY: 0 });
    expect(onCommit).toHaveBeenCalledTimes(1);
    fireEvent.pointerMove(el, { pointerId: 1, clientY: 400 }); // after the drag: nothing
    expect(onResize).toHaveBeenCalledTimes(2);
  });
  it('a right-button press does not drag', () => {
    const { el, onResize } = splitter();
    fireEvent.pointerDown(el, { button: 2, pointerId: 1, clientY: 500 });
    fireEvent.pointerMove(el, { pointerId: 1, clientY: 400 });
    expect(onResize).not.toHaveBeenCalled();
  });
  it('keys resize and commit; Enter collapses; double-click resets', () => {
    const { el, onResize, onCommit, onCollapse, onReset } = splitter();
    fireEvent.keyDown(el, { key: 'ArrowUp' });
    expect(onResize).toHaveBeenLastCalledWith(136);
    fireEvent.keyDown(el, { key: 'Home' });
    expect(onResize).toHaveBeenLastCalledWith(96);
    expect(onCommit).toHaveBeenCalledTimes(2);
    fireEvent.keyDown(el, { key: 'Enter' });
    expect(onCollapse).toHaveBeenCalledTimes(1);
    fireEvent.doubleClick(el);
    expect(onReset).toHaveBeenCalledTimes(1);
  });
});
