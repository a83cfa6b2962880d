// Serendip's design system. Tokens and the .button classes load globally through styles.css; each component
// brings its own stylesheet.
export { Avatar, initialsOf, type AvatarProps, type AvatarSize } from './Avatar';
export { Badge, type BadgeProps, type BadgeTone } from './Badge';
export {
  Button,
  buttonClassName,
  type ButtonLook,
  type ButtonProps,
  type ButtonSize,
  type ButtonVariant,
} from './Button';
export { Card, CardDescription, CardFooter, CardHeader, CardTitle, type CardProps, type CardTitleProps } from './Card';
export { cx } from './cx';
export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  DialogTrigger,
  type DialogContentProps,
  type DialogSize,
} from './Dialog';
export {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  type DropdownMenuItemProps,
} from './DropdownMenu';
export { type FieldChrome } from './Field';
export { Input, type InputProps } from './Input';
export { Slider, type SliderProps } from './Slider';
export { Spinner, type SpinnerProps } from './Spinner';
export { Switch, type SwitchProps } from './Switch';
export { Tabs, TabsContent, TabsList, TabsTrigger } from './Tabs';
export { Textarea, type TextareaProps } from './Textarea';
export { Tooltip, TooltipProvider, type TooltipProps } from './Tooltip';
export { VisuallyHidden } from './VisuallyHidden';
