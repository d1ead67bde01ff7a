// A divider between two panes: drag it, or focus it and use the arrow keys (Shift: bigger
// steps, Home/End: the ends, Enter: collapse when the pane can collapse). Double-click resets.
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { cx } from '../components/util';
import { keySize, type Range } from './panes';
import './layout.css';

interface Props {
  /** 'x' resizes a width (a vertical bar), 'y' a height (a horizontal bar) */
  axis: 'x' | 'y';
  /** which way dragging makes the pane bigger */
  grows: 'up' | 'down' | 'left' | 'right';
  /** the pane's size now, in px, and what it may be */
  size: number;
  range: Range;
  label: string;
  /** the id of the pane it resizes */
  controls?: string;
  testId?: string;
  className?: string;
  /** a new size while dragging or on a key */
  onResize: (px: number) => void;
  /** the drag or the key is done: remember the size */
  onCommit: () => void;
  onReset?: () => void;
  onCollapse?: () => void;
}

export function Splitter({ axis, grows, size, range, label, controls, testId, className, onResize, onCommit, onReset, onCollapse }: Props) {
  const drag = useRef<{ start: number; size: number; id: number } | null>(null);
  const sign = grows === 'down' || grows === 'right' ? 1 : -1;
  const at = (e: PointerEvent) => (axis === 'x' ? e.clientX : e.clientY);

  const down = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.focus();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { start: at(e), size, id: e.pointerId };
  };
  const move = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const px = Math.round(d.size + sign * (at(e) - d.start));
    onResize(Math.min(Math.max(px, range.min), range.max));
  };
  const up = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    drag.current = null;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
    onCommit();
  };
  const key = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' && onCollapse) { e.preventDefault(); onCollapse(); return; }
    const px = keySize(e.key, e.shiftKey, size, range, grows);
    if (px === null) return;
    e.preventDefault();
    e.stopPropagation(); // Home/End move the step cursor elsewhere
    if (px !== size) onResize(px);
    onCommit();
  };

  return (
    <div
      role="separator"
      tabIndex={0}
      aria-orientation={axis === 'x' ? 'vertical' : 'horizontal'}
      aria-label={label}
      aria-controls={controls}
      aria-valuenow={Math.round(size)}
      aria-valuemin={Math.round(range.min)}
      aria-valuemax={Math.round(range.max)}
      title={`${label}: drag, or focus and use the arrow keys${onCollapse ? '; Enter collapses' : ''}${onReset ? '; double-click resets' : ''}`}
      className={cx('splitter', axis === 'x' ? 'splitter-x' : 'splitter-y', className)}
      data-testid={testId}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onKeyDown={key}
      onDoubleClick={onReset}
    />
  );
}
