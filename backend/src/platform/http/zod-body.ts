import { BadRequestException, type PipeTransform } from '@nestjs/common';

interface ZodLikeSchema<T> {
  safeParse(
    body: unknown,
  ):
    | { success: true; data: T }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/**
 * A body checked by the same zod schema the socket contract uses (proto), answered as the global ValidationPipe
 * answers: 400 with one message per field, 'field: what is wrong'.
 */
export function zodBody<T>(schema: ZodLikeSchema<T>): PipeTransform<unknown, T> & { bodySchema: unknown } {
  return {
    // The API docs read the body's JSON Schema from here (platform/api-docs).
    bodySchema: schema,
    transform(body: unknown): T {
      const result = schema.safeParse(body);
      if (result.success) return result.data;
      throw new BadRequestException(
        result.error.issues.map((issue) => {
          const where = issue.path.map(String).join('.');
          return where ? `${where}: ${issue.message}` : issue.message;
        }),
      );
    },
  };
}
