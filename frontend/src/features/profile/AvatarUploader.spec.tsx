import { configureStore } from '@reduxjs/toolkit';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toasts } from '../../shared/toasts/Toasts';
import { aUser, resetBrowser } from '../auth/auth-test-support';
import { sessionReducer, type SessionState } from '../auth/session.slice';
import { type AvatarUploadEvents, type StartAvatarUpload } from './avatar-upload';
import { AvatarUploader } from './AvatarUploader';

const MEGABYTE = 1024 * 1024;

function aPicture(bytes: number, name = 'me.png'): File {
  const file = new File(['picture'], name, { type: 'image/png' });
  Object.defineProperty(file, 'size', { value: bytes });
  return file;
}

/** An upload the test drives by hand, in place of tus (a real tus upload is covered by the browser tests). */
function fakeUploads() {
  const upload = { pause: vi.fn(), resume: vi.fn(), cancel: vi.fn() };
  let events: AvatarUploadEvents | undefined;
  const start = vi.fn<StartAvatarUpload>((_file, given) => {
    events = given;
    return upload;
  });
  const report = (step: (events: AvatarUploadEvents) => void) =>
    act(() => {
      if (!events) throw new Error('no upload started');
      step(events);
    });
  return { start, upload, report };
}

function renderUploader(startUpload?: StartAvatarUpload) {
  const session: SessionState = {
    user: aUser(),
    status: 'authenticated',
    signingOut: false,
    expired: false,
    newcomer: false,
  };
  const store = configureStore({ reducer: { session: sessionReducer }, preloadedState: { session } });
  render(
    <Provider store={store}>
      <AvatarUploader startUpload={startUpload} />
      <Toasts />
    </Provider>,
  );
  return { store, input: () => screen.getByLabelText<HTMLInputElement>('Profile picture file') };
}

const button = (name: string) => screen.getByRole('button', { name });

describe('avatar uploader (spec 4 "Avatar upload", "Upload task")', () => {
  afterEach(resetBrowser);

  it('refuses a picture over 5 MB at once, without any request', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    vi.stubGlobal('fetch', fetch);
    const opened = vi.spyOn(XMLHttpRequest.prototype, 'open');
    const { input } = renderUploader();

    expect(input().accept).toBe('image/jpeg,image/png,image/webp');
    await userEvent.upload(input(), aPicture(6 * MEGABYTE));

    expect(await screen.findByText('Failed to upload image')).toBeDefined();
    expect(screen.getByText('This picture is 6.0 MB. Pictures up to 5 MB.')).toBeDefined();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(button('Upload picture')).toHaveProperty('disabled', false);
    expect(fetch).not.toHaveBeenCalled();
    expect(opened).not.toHaveBeenCalled();
  });

  it('shows progress and enables Pause, Resume and Cancel as the task allows', async () => {
    const { start, upload, report } = fakeUploads();
    const { input } = renderUploader(start);

    await userEvent.upload(input(), aPicture(2 * MEGABYTE));
    expect(start).toHaveBeenCalledTimes(1);
    report((events) => events.progressed(MEGABYTE, 2 * MEGABYTE));

    expect(screen.getByRole('progressbar', { name: 'Picture upload' }).getAttribute('aria-valuenow')).toBe('50');
    expect(button('Uploading picture')).toHaveProperty('disabled', true);
    expect(button('Uploading picture').getAttribute('aria-busy')).toBe('true');
    expect(button('Pause')).toHaveProperty('disabled', false);
    expect(button('Resume')).toHaveProperty('disabled', true);
    expect(button('Cancel')).toHaveProperty('disabled', false);

    await userEvent.click(button('Pause'));
    expect(upload.pause).toHaveBeenCalledTimes(1);
    expect(button('Pause')).toHaveProperty('disabled', true);
    expect(button('Resume')).toHaveProperty('disabled', false);
    expect(button('Cancel')).toHaveProperty('disabled', true);
    expect(screen.getByText('Upload paused.')).toBeDefined();

    await userEvent.click(button('Resume'));
    expect(upload.resume).toHaveBeenCalledTimes(1);
    expect(button('Pause')).toHaveProperty('disabled', false);

    await userEvent.click(button('Cancel'));
    expect(upload.cancel).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Upload canceled.')).toBeDefined();
    expect(button('Upload picture')).toHaveProperty('disabled', false);
  });

  it('takes the updated user from the finishing answer', async () => {
    const { start, report } = fakeUploads();
    const { input, store } = renderUploader(start);
    await userEvent.upload(input(), aPicture(MEGABYTE));

    report((events) => events.succeeded(JSON.stringify(aUser({ avatar: '/api/avatars/user-1.webp' }))));

    expect(await screen.findByText('Profile picture updated successfully')).toBeDefined();
    expect(store.getState().session.user?.avatar).toBe('/api/avatars/user-1.webp');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('says the server failed when the finishing answer is not a user', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { start, report } = fakeUploads();
    const { input, store } = renderUploader(start);
    await userEvent.upload(input(), aPicture(MEGABYTE));

    report((events) => events.succeeded('Created'));

    expect(await screen.findByText('Failed to update profile picture on the server')).toBeDefined();
    expect(store.getState().session.user?.avatar).toBeNull();
  });

  it('says the upload failed when the server refuses it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { start, report } = fakeUploads();
    const { input } = renderUploader(start);
    await userEvent.upload(input(), aPicture(MEGABYTE));

    report((events) => events.failed(new Error('tus: unexpected response while creating upload, status 415')));

    expect(await screen.findByText('Failed to upload image')).toBeDefined();
    expect(button('Upload picture')).toHaveProperty('disabled', false);
  });
});
