import { useId } from 'react';

interface BrandMarkProps {
  size?: number;
  className?: string;
}

/** Two rings meeting: one stranger, one you. Decorative; the brand name is always written next to it. */
export function BrandMark({ size = 32, className }: BrandMarkProps) {
  // Gradient ids are document-wide; several marks on one page must not share one.
  const gradientId = useId();
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" className="brand-mark__from" />
          <stop offset="1" className="brand-mark__to" />
        </linearGradient>
      </defs>
      <circle cx="12.5" cy="16" r="7.5" fill="none" stroke={`url(#${gradientId})`} strokeWidth="3" />
      <circle cx="19.5" cy="16" r="7.5" fill="none" stroke={`url(#${gradientId})`} strokeWidth="3" />
    </svg>
  );
}
