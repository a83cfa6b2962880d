import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Badge } from './Badge';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from './Card';
import { Spinner } from './Spinner';
import { VisuallyHidden } from './VisuallyHidden';

describe('Spinner', () => {
  it('is a status that says what is loading', () => {
    render(<Spinner label="Loading ban status" />);

    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Loading ban status');
    expect(status.querySelector('.ui-spinner__ring')?.getAttribute('aria-hidden')).toBe('true');
  });

  it('says Loading when not told more', () => {
    render(<Spinner size="sm" />);

    expect(screen.getByRole('status').textContent).toBe('Loading');
  });
});

describe('VisuallyHidden', () => {
  it('keeps its text for screen readers while drawing nothing', () => {
    render(
      <button type="button">
        <svg aria-hidden="true" />
        <VisuallyHidden>Report user</VisuallyHidden>
      </button>,
    );

    const text = screen.getByText('Report user');
    expect(screen.getByRole('button', { name: 'Report user' })).toBeDefined();
    expect(text.style.position).toBe('absolute');
    expect(text.style.width).toBe('1px');
  });
});

describe('Badge', () => {
  it('writes its status in words, toned by class', () => {
    render(<Badge tone="pending">Pending</Badge>);

    expect(screen.getByText('Pending').className).toBe('ui-badge ui-badge--pending');
  });
});

describe('Card', () => {
  it('renders a titled section when asChild, with its heading at the level asked for', () => {
    render(
      <Card asChild glow>
        <section aria-labelledby="ban-status">
          <CardHeader>
            <CardTitle as="h3" id="ban-status">
              Ban Status
            </CardTitle>
            <CardDescription>Case ID 42</CardDescription>
          </CardHeader>
          <CardFooter>footer</CardFooter>
        </section>
      </Card>,
    );

    const region = screen.getByRole('region', { name: 'Ban Status' });
    expect(region.className).toBe('ui-card ui-card--glow');
    expect(screen.getByRole('heading', { level: 3, name: 'Ban Status' })).toBeDefined();
  });
});
