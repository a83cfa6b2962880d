import * as proto from '@serendip/proto';
import { z } from 'zod';
import generated from './contract-schemas.generated.json' with { type: 'json' };

/** What scripts/api-schemas.mjs derived from the TypeScript types (`npm run api:schemas`). */
interface Generated {
  http: Record<string, HttpContract>;
  sockets: SocketContract[];
  definitions: Record<string, object>;
  /** Type name -> the proto zod schema it is inferred from. */
  zod: Record<string, string>;
}

export interface HttpContract {
  answer: 'json' | 'binary' | 'none';
  schema?: object;
  description?: string;
}

export interface SocketContract {
  namespace: string;
  direction: 'clientToServer' | 'serverToClient';
  name: string;
  description?: string;
  payload?: object;
  ack?: object;
}

const contracts = generated as unknown as Generated;

export const httpContracts = (): Record<string, HttpContract> => contracts.http;
export const socketContracts = (): SocketContract[] => contracts.sockets;

/** A zod schema (proto's, zod or zod/mini) as JSON Schema: what a client sends ('input') or receives ('output'). */
export function toJsonSchema(schema: unknown, io: 'input' | 'output'): object {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any' });
  return json;
}

/** Every named schema the answers and socket payloads refer to, the zod-inferred ones asked of zod itself. */
export function contractSchemas(): Record<string, object> {
  const schemas: Record<string, object> = { ...contracts.definitions };
  for (const [name, schemaName] of Object.entries(contracts.zod)) {
    const schema = (proto as Record<string, unknown>)[schemaName];
    if (!schema) throw new Error(`@serendip/proto exports no ${schemaName} (the schema of ${name})`);
    schemas[name] = toJsonSchema(schema, 'output');
  }
  return schemas;
}
