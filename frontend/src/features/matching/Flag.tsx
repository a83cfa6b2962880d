import 'flag-icons/css/flag-icons.min.css';
import { countryNameOf } from '../../shared/country-names';

/** A country's flag (flag-icons, served by us: no image host), with its name for screen readers when it stands alone. */
export function Flag({ code, decorative = false }: { code: string; decorative?: boolean }) {
  return (
    <span
      className={`fi fi-${code.toLowerCase()} match-flag`}
      {...(decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': countryNameOf(code) })}
    />
  );
}
