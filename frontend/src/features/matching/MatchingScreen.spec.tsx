import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { AUTH_PATHS } from '@serendip/proto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore, type RootState } from '../../app/store';
import { renderApp } from '../../test-support/render-app';
import {
  aUser,
  inTurn,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../auth/auth-test-support';
import { ChatPanel } from './ChatPanel';
import { FeedbackCard } from './FeedbackCard';
import { aMatch, fakeMatchingServices } from './matching-test-support';
import { initialMatchingState, type MatchingState } from './matching.slice';
import { PreferenceWizard } from './PreferenceWizard';
import '../../ui/test-polyfills';

function renderWith(ui: React.ReactNode, matching: Partial<MatchingState> = {}) {
  const { services } = fakeMatchingServices();
  const store = makeStore({ matching: { ...initialMatchingState(), ...matching } } as Partial<RootState>, {
    matching: services,
  });
  render(
    <Provider store={store}>
      <MemoryRouter>{ui}</MemoryRouter>
    </Provider>,
  );
  return store;
}

describe('the preference wizard (spec 2)', () => {
  it('walks the four steps with their titles and ends on the summary', async () => {
    const user = userEvent.setup();
    const store = renderWith(<PreferenceWizard />);
    expect(screen.getByRole('heading', { name: 'Select Gender' })).toBeDefined();
    expect(screen.getByText('Skipping this will result in matching with both genders')).toBeDefined();
    await user.click(screen.getByRole('button', { name: /Female/ }));
    expect(store.getState().matching.filters.gender).toBe('female');
    await user.click(screen.getByRole('button', { name: /Female/ }));
    expect(store.getState().matching.filters.gender).toBeNull();
    // 'Any' is a choice of its own on every step, pressed while nothing narrows it.
    await user.click(screen.getByRole('button', { name: 'Male' }));
    expect(screen.getByRole('button', { name: 'Any' }).getAttribute('aria-pressed')).toBe('false');
    await user.click(screen.getByRole('button', { name: 'Any' }));
    expect(store.getState().matching.filters.gender).toBeNull();
    expect(screen.getByRole('button', { name: 'Any' }).getAttribute('aria-pressed')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Select Country' })).toBeDefined();
    await user.type(screen.getByPlaceholderText('Search for a country...'), 'norw');
    // spec 2: the list follows the search once typing pauses for 250 ms.
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Countries' })).getAllByRole('listitem')).toHaveLength(1),
    );
    await user.click(screen.getByRole('button', { name: /Norway/ }));
    expect(store.getState().matching.filters.country).toBe('NO');
    await user.clear(screen.getByPlaceholderText('Search for a country...'));
    await user.click(await screen.findByRole('button', { name: 'Any country' }));
    expect(store.getState().matching.filters.country).toBeNull();
    await user.type(screen.getByPlaceholderText('Search for a country...'), 'norw');
    await user.click(await screen.findByRole('button', { name: /Norway/ }));

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Select Age Range' })).toBeDefined();
    expect(screen.getByRole('slider', { name: 'Minimum age' }).getAttribute('aria-valuenow')).toBe('18');
    expect(screen.getByRole('slider', { name: 'Maximum age' }).getAttribute('aria-valuenow')).toBe('35');
    expect(screen.getByText('18 - 35 years')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Any' }));
    expect(store.getState().matching.filters.ageRange).toEqual([18, 110]);
    expect(screen.getByText('Any age')).toBeDefined();
    store.dispatch({ type: 'matching/filtersChanged', payload: { ageRange: [18, 35] } });

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Your Preferences' })).toBeDefined();
    const summary = screen.getByText('Age Range').closest('dl')!;
    expect(within(summary).getByText('Any')).toBeDefined();
    expect(within(summary).getByText(/Norway/)).toBeDefined();
    expect(within(summary).getByText('18 - 35')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByRole('heading', { name: 'Select Age Range' })).toBeDefined();
  });

  it('opens later visits on the ready screen: the saved choices, interests, Start and Edit', async () => {
    const user = userEvent.setup();
    const store = renderWith(<PreferenceWizard />, {
      view: 'ready',
      filters: { gender: 'female', country: null, ageRange: [18, 35] },
    });
    expect(screen.getByRole('heading', { name: 'Your Preferences' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Start Matching' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
    // The look at oneself, with the switches the call will have.
    expect(screen.getByRole('group', { name: 'Your camera' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Microphone' }).getAttribute('aria-pressed')).toBe('true');

    const interests = screen.getByLabelText('Interests (optional)');
    await user.type(interests, ' Chess {Enter}');
    await user.type(interests, 'jazz,');
    expect(store.getState().matching.filters.interests).toEqual(['chess', 'jazz']);
    await user.type(interests, 'c++{Enter}');
    expect(screen.getByText('an interest has only letters, digits, spaces and hyphens')).toBeDefined();
    expect(store.getState().matching.filters.interests).toEqual(['chess', 'jazz']);
    await user.click(screen.getByRole('button', { name: 'Remove chess' }));
    expect(store.getState().matching.filters.interests).toEqual(['jazz']);

    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('heading', { name: 'Select Gender' })).toBeDefined();
    expect(screen.getByRole('button', { name: /Female/ }).getAttribute('aria-pressed')).toBe('true');
  });
});

describe('the video match page of an account whose e-mail address is not confirmed', () => {
  afterEach(() => {
    resetBrowser();
    vi.unstubAllGlobals();
  });

  it('says so and offers no Start until the server says the address is confirmed', async () => {
    const user = userEvent.setup();
    // The link is followed in another tab: the second look at the account finds it confirmed.
    const server = serveFakeApi().on(
      'GET',
      AUTH_PATHS.userInfo,
      inTurn(
        reply(200, aUser({ emailVerified: false })),
        reply(200, aUser({ emailVerified: false })),
        reply(200, aUser()),
      ),
    );
    rememberSessionInThisBrowser();
    renderApp('/video-match', {
      preloadedState: { matching: { ...initialMatchingState(), view: 'ready' } },
      services: { matching: fakeMatchingServices().services },
    });

    expect(await screen.findByText('Confirm your e-mail address to start matching.')).toBeDefined();
    const start = screen.getByRole('button', { name: 'Start Matching' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(start.getAttribute('aria-describedby')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'I have confirmed it' }));
    expect(await screen.findByText(/^Your address is not confirmed yet\./)).toBeDefined();
    expect(start.disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'I have confirmed it' }));
    await waitFor(() => expect(start.disabled).toBe(false));
    expect(screen.queryByText('Confirm your e-mail address to start matching.')).toBeNull();
    expect(server.requestsTo('GET', AUTH_PATHS.userInfo)).toHaveLength(3);
  });

  it('sends the link again on request and says where, or why not', async () => {
    const user = userEvent.setup();
    const server = serveFakeApi()
      .on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ emailVerified: false })))
      .on(
        'POST',
        AUTH_PATHS.resendVerification,
        inTurn(
          reply(202, {
            message: 'We sent a new link to a•••@example.com. It lasts 24 hours.',
          }),
          reply(429, { statusCode: 429, message: 'Too many requests' }, { 'Retry-After': '1800' }),
        ),
      );
    rememberSessionInThisBrowser();
    renderApp('/video-match', {
      preloadedState: { matching: { ...initialMatchingState(), view: 'ready' } },
      services: { matching: fakeMatchingServices().services },
    });

    await user.click(await screen.findByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText('We sent a new link to a•••@example.com. It lasts 24 hours.')).toBeDefined();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText(/try again in 30 minutes/i)).toBeDefined();
    expect(server.requestsTo('POST', AUTH_PATHS.resendVerification)).toHaveLength(2);
  });
});

describe('the chat panel (spec 2)', () => {
  it('is titled after the partner; Enter sends, Shift+Enter makes a new line', async () => {
    const user = userEvent.setup();
    const match = aMatch();
    const store = renderWith(<ChatPanel />, {
      view: 'call',
      status: 'connected',
      matchId: match.matchId,
      partner: match.partnerUser,
    });
    expect(screen.getByRole('heading', { name: 'Message Bob' })).toBeDefined();
    expect(screen.getByText('No messages yet. Say hello!')).toBeDefined();
    const input = screen.getByPlaceholderText('Send a message...');
    await user.type(input, 'Hello{Shift>}{Enter}{/Shift}there');
    expect((input as HTMLTextAreaElement).value).toBe('Hello\nthere');
    await user.type(input, '{Enter}');
    expect((input as HTMLTextAreaElement).value).toBe('');
    expect(store.getState().matching.chat).toEqual([]); // the saga appends it once sent (no saga is in a call here)
  });
});

describe('the feedback card (spec 2, 5)', () => {
  it('asks for a rating with the spec labels, then thanks', async () => {
    const user = userEvent.setup();
    renderWith(<FeedbackCard />, { feedback: { matchId: 'm', partnerName: 'Bob', phase: 'asking' } });
    expect(screen.getByRole('heading', { name: 'How was your call with Bob?' })).toBeDefined();
    const send = screen.getByRole('button', { name: 'Send feedback' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    await user.click(screen.getByRole('radio', { name: '4 Very Good' }));
    expect(screen.getByText('Very Good')).toBeDefined();
    expect(send.disabled).toBe(false);
  });

  it('links to reporting that call, leaving matching first', async () => {
    const user = userEvent.setup();
    const store = makeStore({
      matching: { ...initialMatchingState(), feedback: { matchId: 'match-7', partnerName: 'Bob', phase: 'asking' } },
    } as Partial<RootState>);
    const dispatched = vi.spyOn(store, 'dispatch');
    render(
      <Provider store={store}>
        <MemoryRouter>
          <FeedbackCard />
        </MemoryRouter>
      </Provider>,
    );
    const link = screen.getByRole('link', { name: 'Report this call' });
    expect(link.getAttribute('href')).toBe('/security-center/recent-calls?report=match-7');
    await user.click(link);
    expect(dispatched).toHaveBeenCalledWith({ type: 'matching/leaveRequested', payload: undefined });
  });

  it('offers no link away while the next call is on: leaving would end that call', () => {
    renderWith(<FeedbackCard />, {
      status: 'connected',
      matchId: 'match-8',
      feedback: { matchId: 'match-7', partnerName: 'Bob', phase: 'asking' },
    });
    expect(screen.getByRole('heading', { name: 'How was your call with Bob?' })).toBeDefined();
    expect(screen.queryByRole('link', { name: 'Report this call' })).toBeNull();
  });

  it('shows the thanks card with the next match coming', () => {
    renderWith(<FeedbackCard />, { feedback: { matchId: 'm', partnerName: 'Bob', phase: 'thanks' } });
    expect(screen.getByText('We appreciate it!')).toBeDefined();
    expect(
      screen.getByText('Your feedback has been submitted we will continue your matching process soon.'),
    ).toBeDefined();
    expect(screen.getByText('Preparing your next match...')).toBeDefined();
  });
});
