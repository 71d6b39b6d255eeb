// Shapes every part of the contract uses: problems, list metadata, ids, times, the media type.
import { Type, type TSchema } from '@sinclair/typebox';

/** A union of string literals that keeps its literal type. */
export const literals = <T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v))));

export const Nullable = <T extends TSchema>(schema: T, options: { description?: string } = {}) =>
  Type.Union([schema, Type.Null()], options);
export const IsoTime = Type.String({ format: 'date-time' });
const ID_PATTERN = '^[A-Za-z0-9_-]+$';
const ID_MAX_LENGTH = 128;
/** A catalogue, library or job id, in a path or a body: letters, digits, '_' and '-'. */
export const Id = Type.String({ minLength: 1, maxLength: ID_MAX_LENGTH, pattern: ID_PATTERN });
const ID_CHARACTERS = new RegExp(ID_PATTERN);
/** Whether a string has Id's shape: for checks past the routes' own (a cache folder named by a media id). */
export const isId = (value: string): boolean => value.length <= ID_MAX_LENGTH && ID_CHARACTERS.test(value);
export const HexColor = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' });
export const Limit = (dflt: number, max: number) => Type.Integer({ minimum: 1, maximum: max, default: dflt });
export const Cursor = Type.String({ minLength: 1, maxLength: 2048, description: 'Opaque cursor from `meta.nextCursor`' });

export const Problem = Type.Object(
  {
    type: Type.String({ description: 'A URI naming the problem type: /problems/<code>' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String({ description: 'The request path' }),
    requestId: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { description: 'RFC 9457 problem details' },
);

export const ListMeta = Type.Object({ total: Type.Integer({ minimum: 0 }), nextCursor: Nullable(Type.String()) });

export const MediaType = Type.Union([Type.Literal('movie'), Type.Literal('tvshow')]);
