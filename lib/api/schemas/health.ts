// The service's health, and the disk its data lives on.
import { Type, type Static } from '@sinclair/typebox';

export const DiskStatus = Type.Object(
  {
    path: Type.String({ description: 'The data folder (DATA_DIR)' }),
    freeBytes: Type.Integer({ minimum: 0 }),
    totalBytes: Type.Integer({ minimum: 0 }),
    lowBelowBytes: Type.Integer({
      minimum: 0,
      description: 'Free space below this is low: the smaller of DISK_LOW_PERCENT of the disk and DISK_LOW_MIB',
    }),
    state: Type.Union([Type.Literal('ok'), Type.Literal('low')]),
  },
  { description: "The disk holding the service's data; absent where the data is not on this box's disk (the cloud)" },
);

export const HealthReason = Type.Object({
  code: Type.Union([Type.Literal('database-down'), Type.Literal('disk-low')]),
  message: Type.String(),
});

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  version: Type.String(),
  uptimeSeconds: Type.Integer({ minimum: 0 }),
  disk: Type.Optional(DiskStatus),
  reasons: Type.Array(HealthReason, { description: 'Why the status is degraded, in words; empty when ok' }),
});

export type HealthView = Static<typeof Health>;
export type DiskStatusView = Static<typeof DiskStatus>;
