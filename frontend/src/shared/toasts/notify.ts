import { toast } from 'sonner';

/**
 * The one way sagas and pages raise a toast, so none of them imports sonner. The text is the toast's id: the same
 * message fired twice while it is still up (two guards, or React's double effects in development) shows once.
 */
export const notify = {
  success(text: string): void {
    toast.success(text, { id: text });
  },
  error(text: string): void {
    toast.error(text, { id: text });
  },
  info(text: string): void {
    toast.info(text, { id: text });
  },
};
