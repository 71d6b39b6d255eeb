// Validates path parameters, query strings and bodies against the operation's schemas
// (the same ones the OpenAPI document shows). Query values are coerced from strings and
// defaults applied; every failing field is reported, not just the first.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { invalidRequest, type FieldIssue } from '../errors';

const strict = new Ajv({ allErrors: true, useDefaults: true, strict: false });
const coercing = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: true, strict: false });
addFormats(strict);
addFormats(coercing);

const cache = new WeakMap<TSchema, ValidateFunction>();
const compile = (ajv: Ajv, schema: TSchema) => {
  let fn = cache.get(schema);
  if (!fn) cache.set(schema, (fn = ajv.compile(schema)));
  return fn;
};

const describe = (where: string, e: ErrorObject): FieldIssue => {
  const path = e.instancePath.split('/').filter(Boolean).join('.');
  const base = path ? `${where}.${path}` : where;
  switch (e.keyword) {
    case 'additionalProperties':
      return { field: `${base}.${(e.params as { additionalProperty: string }).additionalProperty}`, message: 'is not a known field' };
    case 'required':
      return { field: `${base}.${(e.params as { missingProperty: string }).missingProperty}`, message: 'is required' };
    case 'minProperties':
      return { field: base, message: 'must not be empty' };
    default:
      return { field: base, message: e.message ?? 'is invalid' };
  }
};

// Union schemas report one error per branch; a field needs only its first complaint.
const dedupe = (issues: FieldIssue[]) => [...new Map(issues.map((i) => [i.field, i])).values()];

/** Validates (and, for query strings, coerces) `value` in place; throws a 400 listing every field. */
export const check = <T>(where: 'body' | 'query' | 'params', schema: TSchema, value: unknown): T => {
  const fn = compile(where === 'body' ? strict : coercing, schema);
  if (!fn(value)) throw invalidRequest(dedupe((fn.errors ?? []).map((e) => describe(where, e))));
  return value as T;
};
