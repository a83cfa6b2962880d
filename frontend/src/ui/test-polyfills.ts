// jsdom lacks a few browser APIs that Radix primitives call. Imported by the ui specs; belongs in
// test-support/setup.ts once other specs render these components.

class NoopResizeObserver implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}

// Slider measures its thumbs, Tooltip and DropdownMenu their trigger; without this they throw on mount.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = NoopResizeObserver;
}

// Slider captures the pointer on pointerdown; a click on it throws without these.
if (!Element.prototype.hasPointerCapture) {
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.setPointerCapture = () => {};
  Element.prototype.releasePointerCapture = () => {};
}
