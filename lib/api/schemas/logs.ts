// Log records as GET /api/v1/logs reads them.
import { Type, type Static } from '@sinclair/typebox';
import { LOG_LEVELS } from '../../config';
import { IsoTime, Limit, literals } from './common';

export const LogLevelName = literals(LOG_LEVELS);

export const LogsQuery = Type.Object(
  {
    level: Type.Optional(LogLevelName),
    limit: Type.Optional(Limit(100, 1000)),
    since: Type.Optional(IsoTime),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const LogRecord = Type.Object({ time: IsoTime, level: LogLevelName, msg: Type.String() }, { additionalProperties: true });

export type LogRecordView = Static<typeof LogRecord>;
