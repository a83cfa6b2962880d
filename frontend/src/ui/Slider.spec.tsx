import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Slider } from './Slider';
import './test-polyfills';

// spec 2 and 9: the wizard's age range runs 18 to 110 on two handles.
function AgeRange({ onCommit = () => {} }: { onCommit?: (range: number[]) => void }) {
  const [range, setRange] = useState([18, 35]);
  return (
    <>
      <Slider
        min={18}
        max={110}
        value={range}
        onValueChange={setRange}
        onValueCommit={onCommit}
        thumbLabels={['Minimum age', 'Maximum age']}
      />
      <output>{`${range[0]} - ${range[1]}`}</output>
    </>
  );
}

function thumb(name: string): HTMLElement {
  return screen.getByRole('slider', { name });
}

describe('Slider', () => {
  it('gives each thumb its own label, value and bounds', () => {
    render(<AgeRange />);

    expect(screen.getAllByRole('slider')).toHaveLength(2);
    expect(thumb('Minimum age').getAttribute('aria-valuenow')).toBe('18');
    expect(thumb('Maximum age').getAttribute('aria-valuenow')).toBe('35');
    expect(thumb('Maximum age').getAttribute('aria-valuemin')).toBe('18');
    expect(thumb('Maximum age').getAttribute('aria-valuemax')).toBe('110');
  });

  it('moves the focused thumb with the arrow keys and reports the range', async () => {
    const user = userEvent.setup();
    const onCommit = vi.fn();
    render(<AgeRange onCommit={onCommit} />);

    await user.tab();
    expect(document.activeElement).toBe(thumb('Minimum age'));
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(thumb('Minimum age').getAttribute('aria-valuenow')).toBe('20');

    await user.tab();
    expect(document.activeElement).toBe(thumb('Maximum age'));
    await user.keyboard('{ArrowLeft}');

    expect(screen.getByRole('status').textContent).toBe('20 - 34');
    expect(onCommit).toHaveBeenLastCalledWith([20, 34]);
  });

  it('jumps to the ends with Home and End', async () => {
    const user = userEvent.setup();
    render(<AgeRange />);
    await user.tab();
    await user.tab();

    await user.keyboard('{End}');

    expect(thumb('Maximum age').getAttribute('aria-valuenow')).toBe('110');
  });
});
