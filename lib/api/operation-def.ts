// What an operation of the contract is, and the helpers each group of definitions builds them with.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import * as S from './schemas';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Success {
  status: number;
  description: string;
  schema?: TSchema;
  list?: boolean;
  contentType?: string;
}

export interface OperationDef {
  id: string;
  method: HttpMethod;
  /** OpenAPI-style template: /api/v1/movies/{movieId} */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  params?: TObject;
  query?: TObject;
  body?: TSchema;
  bodyRequired?: boolean;
  success: Success;
  /** A second success status it may answer (a delete done at once, 204, or going on in the background, 202). */
  alsoSuccess?: Success;
  /** Statuses this operation may answer besides the common ones (403, 429, 500, 503). */
  errors?: number[];
  /** Counted by the rate limit; media bytes, health and docs are not. */
  counted: boolean;
  /**
   * The function that serves it, as serverless names a handler: `<module path>.<export>`. Each
   * operation is deployed as a function of its own (infra/functions.ts writes serverless.yml's).
   */
  handler: string;
  /**
   * Its answer may name a file for the front door to send from disk (lib/stream/send-file.ts),
   * so at home it goes through the front door's stream route (infra/gateway/stream-route.ts).
   */
  sendsFile?: true;
  /** Left out of the OpenAPI document (the docs page's own assets). */
  undocumented?: boolean;
}

export const pathParams = <const N extends string>(names: readonly N[]) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, S.Id])) as { [K in N]: typeof S.Id }, { additionalProperties: false });

export const op = <T extends OperationDef>(def: T) => def;
