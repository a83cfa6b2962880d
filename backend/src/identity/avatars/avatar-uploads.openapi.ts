import { ACCOUNT_PATHS } from '@serendip/proto';
import { MAX_AVATAR_UPLOAD_BYTES } from './avatar-uploads.js';

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorAnswer' } } },
});
/** tus answers its own refusals (a bad header, offset or size) in plain text. */
const tusError = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });
/** What the finished upload's check answers when the picture is refused. */
const pictureRefused = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['message', 'reason'],
        properties: { message: { type: 'string' }, reason: { type: 'string' } },
      },
    },
  },
});
const tusHeader = { name: 'Tus-Resumable', in: 'header', required: true, schema: { const: '1.0.0' } };
const id = { name: 'uploadId', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9a-f]{32}$' } };
const signedIn = {
  security: [{ session: [] }, { bearer: [] }],
  tags: ['uploads'],
};
const refusals = {
  '401': error('Not signed in.'),
  '403': error("The account is banned ('Your account is restricted.')."),
};

/**
 * The profile picture's tus routes (resumable uploads, https://tus.io/protocols/resumable-upload): answered by the
 * tus server before Nest, so the API docs take their description from here (they are not controller routes).
 */
export const AVATAR_UPLOADS_OPENAPI = {
  [ACCOUNT_PATHS.avatarUploads]: {
    post: {
      ...signedIn,
      operationId: 'AvatarUploads_create',
      summary: 'Start a picture upload (tus creation, with or without its bytes)',
      description: `At most ${MAX_AVATAR_UPLOAD_BYTES} bytes (Upload-Length); 20 uploads an hour, 2 unfinished at once (the oldest makes room). An upload that ends in this request answers as PATCH's last one.`,
      parameters: [
        tusHeader,
        {
          name: 'Upload-Length',
          in: 'header',
          required: true,
          schema: { type: 'integer', maximum: MAX_AVATAR_UPLOAD_BYTES },
        },
      ],
      responses: {
        '201': { description: 'Created: `Location` names the upload, `Upload-Offset` how much it holds.' },
        '400': tusError('Upload-Length is missing or malformed.'),
        ...refusals,
        '412': tusError('Tus-Resumable is not 1.0.0.'),
        '413': tusError(`Upload-Length over ${MAX_AVATAR_UPLOAD_BYTES} bytes.`),
        '429': error('Over 20 uploads an hour; Retry-After says when.'),
        '503': error('Too many picture uploads in progress on this node; Retry-After says when.'),
      },
    },
  },
  [`${ACCOUNT_PATHS.avatarUploads}/{uploadId}`]: {
    head: {
      ...signedIn,
      operationId: 'AvatarUploads_offset',
      summary: 'How much of an upload arrived (tus)',
      parameters: [tusHeader, id],
      responses: {
        '200': { description: '`Upload-Offset` and `Upload-Length`.' },
        ...refusals,
        '404': tusError("No such upload (or not the caller's)."),
      },
    },
    patch: {
      ...signedIn,
      operationId: 'AvatarUploads_append',
      summary: 'Send the next bytes (tus); the last ones make the picture the profile picture',
      parameters: [tusHeader, id, { name: 'Upload-Offset', in: 'header', required: true, schema: { type: 'integer' } }],
      requestBody: {
        required: true,
        content: { 'application/offset+octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      responses: {
        '200': {
          description: 'The last bytes: the picture, re-encoded as a 512 px WebP, is the profile picture.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/UserInfo' } } },
        },
        '204': { description: 'Stored; `Upload-Offset` says how far.' },
        '400': tusError('Upload-Offset is missing or malformed.'),
        ...refusals,
        '404': tusError("No such upload (or not the caller's)."),
        '409': tusError('Upload-Offset is not where the upload stands.'),
        '412': tusError('Tus-Resumable is not 1.0.0.'),
        '415': pictureRefused('Not a JPEG, PNG or WebP picture (by its bytes).'),
        '422': pictureRefused('The picture has too many pixels or cannot be read.'),
      },
    },
    delete: {
      ...signedIn,
      operationId: 'AvatarUploads_terminate',
      summary: 'Give up an unfinished upload (tus termination)',
      parameters: [tusHeader, id],
      responses: {
        '204': { description: 'Deleted.' },
        ...refusals,
        '404': tusError("No such upload (or not the caller's)."),
      },
    },
  },
};
