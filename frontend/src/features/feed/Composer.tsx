import type { FeedImageUploaded } from '@serendip/proto';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../ui/Button';
// The text box wears the design system's field look (this file draws its own label and counter).
import '../../ui/field.css';
import { type Picture, PictureField } from './PictureField';

interface ComposerProps {
  /** The field's name ('Write a post'); shown to screen readers only when `hideLabel`. */
  label: string;
  placeholder?: string;
  /** The most characters the server takes (FEED_LIMITS). */
  limit: number;
  submitLabel: string;
  /**
   * Sends the text (and the picture's id, when one was added); resolves true when it was taken (the field empties),
   * false to keep it for another try.
   */
  onSubmit: (text: string, imageId?: string) => Promise<boolean>;
  /** A post may carry a picture: how to upload one. */
  uploadPicture?: (file: File) => Promise<FeedImageUploaded>;
  rows?: number;
  autoFocus?: boolean;
  onCancel?: () => void;
}

/** A text box with a counter to its limit and a send button (a post, a comment, a reply). */
export function Composer({
  label,
  placeholder,
  limit,
  submitLabel,
  onSubmit,
  rows = 3,
  autoFocus,
  onCancel,
  uploadPicture,
}: ComposerProps) {
  const [text, setText] = useState('');
  const [picture, setPicture] = useState<Picture | null>(null);
  const [sending, setSending] = useState(false);
  const id = useId();
  const length = text.length;
  const over = length > limit;
  const imageId = picture?.state === 'ready' ? picture.imageId : undefined;
  // A post may be only a picture; one still uploading waits.
  const empty = text.trim() === '' && !imageId;
  const waiting = picture?.state === 'uploading';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (empty || over || sending || waiting) return;
    setSending(true);
    const taken = await onSubmit(text.trim(), imageId);
    setSending(false);
    if (!taken) return;
    setText('');
    setPicture(null);
  };

  return (
    <form className="feed-composer" onSubmit={(e) => void submit(e)}>
      <label htmlFor={`${id}-text`} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={`${id}-text`}
        className="ui-field__input ui-field__input--multiline feed-composer__input"
        rows={rows}
        value={text}
        placeholder={placeholder ?? label}
        autoFocus={autoFocus}
        aria-describedby={`${id}-count`}
        aria-invalid={over || undefined}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="feed-composer__foot">
        <span id={`${id}-count`} className={over ? 'feed-composer__count is-over' : 'feed-composer__count'}>
          {length.toLocaleString('en')} / {limit.toLocaleString('en')}
          <span className="visually-hidden"> characters</span>
        </span>
        {uploadPicture && (
          <PictureField picture={picture} onChange={setPicture} upload={uploadPicture} disabled={sending} />
        )}
        <span className="feed-composer__buttons">
          {onCancel && (
            <Button variant="ghost" size="sm" onClick={onCancel}>
              Cancel
            </Button>
          )}
          <Button type="submit" size="sm" busy={sending} disabled={empty || over || waiting}>
            {submitLabel}
          </Button>
        </span>
      </div>
    </form>
  );
}
