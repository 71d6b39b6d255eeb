// The service's health.
import { Type, type Static } from '@sinclair/typebox';

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  version: Type.String(),
  uptimeSeconds: Type.Integer({ minimum: 0 }),
});

export type HealthView = Static<typeof Health>;
