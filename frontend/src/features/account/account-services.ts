import { createContext, useContext } from 'react';
import { type AccountApi, accountApi } from './account-api';

/**
 * What the account dialog reaches outside React: its calls and a full page reload. A context with the browser's
 * defaults, like app/services.ts is for the sagas, so a test can answer with fakes by wrapping the app in a provider.
 */
export interface AccountServices {
  api: AccountApi;
  /** spec 4: the two-factor toggle is followed by a page reload. */
  reloadPage: () => void;
}

export const browserAccountServices: AccountServices = {
  api: accountApi,
  reloadPage: () => window.location.reload(),
};

const AccountServicesContext = createContext<AccountServices>(browserAccountServices);

export const AccountServicesProvider = AccountServicesContext.Provider;

export function useAccountServices(): AccountServices {
  return useContext(AccountServicesContext);
}
