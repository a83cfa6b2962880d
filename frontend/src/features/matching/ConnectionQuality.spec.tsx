import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConnectionQuality } from './ConnectionQuality';

describe('connection quality on the call', () => {
  it('says on screen what the word is about, and is named for screen readers', () => {
    const { rerender } = render(<ConnectionQuality quality="good" />);

    const quality = screen.getByRole('note', { name: 'Connection quality' });
    expect(quality.textContent).toBe('Connection: Good');
    expect(quality.querySelector('.visually-hidden')).toBeNull();

    rerender(<ConnectionQuality quality="unknown" />);
    expect(screen.getByRole('note', { name: 'Connection quality' }).textContent).toBe('Connection: Unknown');
  });
});
