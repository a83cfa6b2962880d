/** Every REST route lives under this prefix (spec 7: "the product's API base path ending in /api"). */
export const API_PREFIX = 'api';

/** The JSON body of every error answer: Nest's shape, kept so clients read one form. */
export interface ApiError {
  statusCode: number;
  message: string | string[];
  error?: string;
}
