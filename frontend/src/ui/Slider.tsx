import { Slider as SliderPrimitive } from 'radix-ui';
import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';
import './slider.css';

export interface SliderProps extends ComponentPropsWithRef<typeof SliderPrimitive.Root> {
  /**
   * One accessible name per thumb, in value order; as many thumbs as labels, e.g. ['Minimum age', 'Maximum age']
   * with `value={[18, 35]}` for a range.
   */
  thumbLabels: readonly string[];
}

/** Radix slider: arrow keys step, Page Up/Down take ten steps, Home/End jump to the ends. */
export function Slider({ thumbLabels, className, ...props }: SliderProps) {
  return (
    <SliderPrimitive.Root className={cx('ui-slider', className)} {...props}>
      <SliderPrimitive.Track className="ui-slider__track">
        <SliderPrimitive.Range className="ui-slider__range" />
      </SliderPrimitive.Track>
      {thumbLabels.map((label) => (
        <SliderPrimitive.Thumb key={label} className="ui-slider__thumb" aria-label={label} />
      ))}
    </SliderPrimitive.Root>
  );
}
