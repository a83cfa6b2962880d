import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Avatar, initialsOf } from './Avatar';

/** A browser Image stand-in: every image "loads" a tick after its src is set, or fails when the URL says so. */
class FakeImage extends EventTarget {
  naturalWidth = 0;
  complete = false;
  referrerPolicy = '';
  crossOrigin: string | null = null;
  #src = '';
  get src(): string {
    return this.#src;
  }
  set src(value: string) {
    this.#src = value;
    setTimeout(() => {
      const broken = value.includes('broken');
      this.complete = true;
      this.naturalWidth = broken ? 0 : 96;
      this.dispatchEvent(new Event(broken ? 'error' : 'load'));
    }, 0);
  }
}

describe('initialsOf', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['  grace   brewster murray hopper ', 'GH'],
    ['cher', 'C'],
    ['', '?'],
    ['Łukasz Żółw', 'ŁŻ'],
  ])('%j -> %j', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });
});

describe('Avatar', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('without a photo shows the initials, and is named after the person', () => {
    render(<Avatar name="Ada Lovelace" />);

    const avatar = screen.getByRole('img', { name: 'Ada Lovelace' });
    expect(avatar.textContent).toBe('AL');
  });

  it('shows the photo once it loads', async () => {
    vi.stubGlobal('Image', FakeImage);
    render(<Avatar name="Ada Lovelace" src="/avatars/ada.jpg" />);

    await act(() => new Promise((resolve) => setTimeout(resolve, 10)));

    const avatar = screen.getByRole('img', { name: 'Ada Lovelace' });
    expect(avatar.querySelector('img')?.getAttribute('src')).toBe('/avatars/ada.jpg');
    expect(avatar.textContent).toBe('');
  });

  it('falls back to the initials when the photo is broken', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('Image', FakeImage);
    render(<Avatar name="Grace Hopper" src="/avatars/broken.jpg" />);

    await act(() => vi.advanceTimersByTimeAsync(1000));

    const avatar = screen.getByRole('img', { name: 'Grace Hopper' });
    expect(avatar.querySelector('img')).toBeNull();
    expect(avatar.textContent).toBe('GH');
  });

  it('can be decorative when the name is written beside it', () => {
    render(
      <p>
        <Avatar name="Ada Lovelace" decorative /> Ada Lovelace
      </p>,
    );

    expect(screen.queryByRole('img')).toBeNull();
  });
});
