import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes } from '../app/routes';
import type { AppServices } from '../app/services';
import { makeStore, type RootState } from '../app/store';
import { FakeSystemSocket } from './fake-system-socket';

interface RenderAppOptions {
  preloadedState?: Partial<RootState>;
  services?: Partial<AppServices>;
  socket?: FakeSystemSocket;
}

/**
 * The whole app at `path`, on the real store and sagas. The health check goes through the global fetch (stub it
 * with vi.stubGlobal); the socket is always a fake so no test opens a connection.
 */
export function renderApp(
  path: string,
  { preloadedState, services, socket = new FakeSystemSocket() }: RenderAppOptions = {},
) {
  const store = makeStore(preloadedState, {
    openSystemSocket: (query) => {
      socket.query = query;
      return socket;
    },
    ...services,
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { ...view, store, router, socket };
}

/** A fetch stub answering every call with this status and JSON body. */
export function answerWith(status: number, body: unknown): typeof fetch {
  return async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
}
