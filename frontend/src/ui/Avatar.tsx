import { Avatar as AvatarPrimitive } from 'radix-ui';
import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';
import './avatar.css';

export type AvatarSize = 'sm' | 'md' | 'lg' | 'xl';

export interface AvatarProps extends Omit<ComponentPropsWithRef<typeof AvatarPrimitive.Root>, 'children'> {
  /** Whose picture: its accessible name, and the source of the initials. */
  name: string;
  /** The photo; while it loads, or when it is missing or broken, the initials show. */
  src?: string | null;
  size?: AvatarSize;
  /** Hide it from screen readers when the name is already written next to it. */
  decorative?: boolean;
}

/** 'Ada Lovelace' -> 'AL', 'cher' -> 'C', '' -> '?'. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (first === undefined) return '?';
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  // Array.from keeps a letter outside the BMP whole.
  const letter = (word: string | undefined) => (word ? (Array.from(word)[0] ?? '') : '');
  return (letter(first) + letter(last)).toLocaleUpperCase();
}

// Long enough that a cached photo never flashes the initials first.
const FALLBACK_DELAY_MS = 400;

export function Avatar({ name, src, size = 'md', decorative = false, className, ...props }: AvatarProps) {
  const label = decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name };
  return (
    <AvatarPrimitive.Root className={cx('ui-avatar', `ui-avatar--${size}`, className)} {...label} {...props}>
      {src && <AvatarPrimitive.Image className="ui-avatar__image" src={src} alt="" />}
      <AvatarPrimitive.Fallback
        className="ui-avatar__fallback"
        aria-hidden="true"
        delayMs={src ? FALLBACK_DELAY_MS : undefined}
      >
        {initialsOf(name)}
      </AvatarPrimitive.Fallback>
    </AvatarPrimitive.Root>
  );
}
