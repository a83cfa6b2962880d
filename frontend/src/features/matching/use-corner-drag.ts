import { type PointerEvent as ReactPointerEvent, useLayoutEffect, useRef, useState } from 'react';

export type Corner = 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

interface Drag {
  pointerId: number;
  startX: number;
  startY: number;
  /** How far the tile may move each way and stay inside its area. */
  bounds: { left: number; right: number; up: number; down: number };
  dx: number;
  dy: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * A tile that a finger or the mouse drags anywhere inside its area (the element's offset parent) and that snaps to
 * the nearest corner when let go, sliding there. Keyboard users keep the tile where it is (it is not a control).
 */
export function useCornerDrag(initial: Corner = 'bottom-right') {
  const [corner, setCorner] = useState<Corner>(initial);
  const tile = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  // Where the tile was on screen when let go, to slide from there to its corner (set before the corner changes).
  const releasedAt = useRef<DOMRect | null>(null);

  useLayoutEffect(() => {
    const element = tile.current;
    const from = releasedAt.current;
    releasedAt.current = null;
    if (!element || !from) return;
    const to = element.getBoundingClientRect();
    element.style.transition = 'none';
    element.style.transform = `translate(${from.left - to.left}px, ${from.top - to.top}px)`;
    // Have the browser take that position in, so that clearing it below is a change that transitions.
    element.getBoundingClientRect();
    // Next frame: let the transition carry it home.
    requestAnimationFrame(() => {
      element.style.transition = '';
      element.style.transform = '';
    });
  }, [corner]);

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    const element = tile.current;
    const area = element?.offsetParent;
    if (!element || !area || (event.pointerType === 'mouse' && event.button !== 0)) return;
    const box = element.getBoundingClientRect();
    const room = area.getBoundingClientRect();
    drag.current = {
      pointerId: event.pointerId,
      startX: event.clientX,
      startY: event.clientY,
      bounds: {
        left: room.left - box.left,
        right: room.right - box.right,
        up: room.top - box.top,
        down: room.bottom - box.bottom,
      },
      dx: 0,
      dy: 0,
    };
    element.setPointerCapture(event.pointerId);
    element.style.transition = 'none';
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    const element = tile.current;
    if (!d || !element || event.pointerId !== d.pointerId) return;
    d.dx = clamp(event.clientX - d.startX, d.bounds.left, d.bounds.right);
    d.dy = clamp(event.clientY - d.startY, d.bounds.up, d.bounds.down);
    element.style.transform = `translate(${d.dx}px, ${d.dy}px)`;
  };

  const onPointerEnd = (event: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    const element = tile.current;
    if (!d || !element || event.pointerId !== d.pointerId) return;
    drag.current = null;
    const area = element.offsetParent?.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    if (!area) return;
    const x = box.left + box.width / 2 < area.left + area.width / 2 ? 'left' : 'right';
    const y = box.top + box.height / 2 < area.top + area.height / 2 ? 'top' : 'bottom';
    const next: Corner = `${y}-${x}`;
    if (next === corner) {
      // Same corner: slide back from where it was let go.
      element.style.transition = '';
      element.style.transform = '';
      return;
    }
    releasedAt.current = box;
    element.style.transform = '';
    setCorner(next);
  };

  return {
    corner,
    ref: tile,
    handlers: { onPointerDown, onPointerMove, onPointerUp: onPointerEnd, onPointerCancel: onPointerEnd },
  };
}
