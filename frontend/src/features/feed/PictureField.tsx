import { FEED_IMAGE_MAX_BYTES, FEED_IMAGE_TYPES, type FeedImageUploaded } from '@serendip/proto';
import { ImagePlus, X } from 'lucide-react';
import { type ChangeEvent, useId, useRef } from 'react';
import { errorsFromFailure } from '../../shared/forms/form-errors';
import { isHttpError } from '../../shared/http/http-error';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { failureText } from './feed-texts';

export const PICTURE_TEXTS = {
  add: 'Add picture',
  remove: 'Remove picture',
  wrongType: 'Choose a JPEG, PNG or WebP picture.',
  tooLarge: `The picture is too large: ${FEED_IMAGE_MAX_BYTES / (1024 * 1024)} MB at most.`,
  failed: 'The picture could not be uploaded.',
} as const;

const refusedPicture = (error: unknown) =>
  isHttpError(error) &&
  error.status === 400 &&
  errorsFromFailure(error, { image: { label: 'The picture' } }, '').fields.image !== undefined;

export type Picture = { state: 'uploading' } | ({ state: 'ready' } & FeedImageUploaded);

interface PictureFieldProps {
  picture: Picture | null;
  onChange: (picture: Picture | null) => void;
  upload: (file: File) => Promise<FeedImageUploaded>;
  disabled?: boolean;
}

/**
 * A post's picture: picked, checked here (type and size, as the server would refuse them), uploaded at once, and
 * previewed from the server's re-encoded copy (what others will see, its metadata gone).
 */
export function PictureField({ picture, onChange, upload, disabled }: PictureFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the same file picked again is a new pick
    if (!file) return;
    if (!(FEED_IMAGE_TYPES as readonly string[]).includes(file.type)) return notify.error(PICTURE_TEXTS.wrongType);
    if (file.size > FEED_IMAGE_MAX_BYTES) return notify.error(PICTURE_TEXTS.tooLarge);
    onChange({ state: 'uploading' });
    try {
      onChange({ state: 'ready', ...(await upload(file)) });
    } catch (error) {
      logError('Picture upload failed', error);
      // The server read the bytes and refused them: one wording for a wrong picture, whoever found it.
      notify.error(refusedPicture(error) ? PICTURE_TEXTS.wrongType : failureText(error, PICTURE_TEXTS.failed));
      onChange(null);
    }
  };

  return (
    <div className="feed-picture">
      <input
        ref={input}
        id={id}
        type="file"
        accept={FEED_IMAGE_TYPES.join(',')}
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        aria-label="Picture file"
        onChange={(e) => void pick(e)}
      />
      {picture?.state === 'uploading' && <Spinner size="sm" label="Uploading the picture" />}
      {picture?.state === 'ready' && (
        <span className="feed-picture__preview">
          <img src={picture.url} alt="The picture you are about to post" />
          <Button
            variant="quiet"
            size="sm"
            iconOnly
            className="feed-picture__remove"
            aria-label={PICTURE_TEXTS.remove}
            disabled={disabled}
            onClick={() => onChange(null)}
          >
            <X aria-hidden="true" />
          </Button>
        </span>
      )}
      {!picture && (
        <Button variant="ghost" size="sm" disabled={disabled} onClick={() => input.current?.click()}>
          <ImagePlus aria-hidden="true" /> {PICTURE_TEXTS.add}
        </Button>
      )}
    </div>
  );
}
