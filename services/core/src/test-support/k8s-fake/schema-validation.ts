import { failedRules } from './cel-rules.js';
import type { JsonSchema } from './resource-types.js';

/**
 * The structural-schema checks the real API server applies to custom resources: types, required fields,
 * enums, ranges, lengths, patterns; defaults filled in; unknown fields pruned; then the CEL rules
 * (`x-kubernetes-validations`) of every node whose own checks passed.
 * Returns the list of problems as "path: message", like the API server's 422 causes.
 */
export function validateAndDefault(schema: JsonSchema, value: unknown, path = ''): string[] {
  const problems: string[] = [];
  check(schema, value, path || '<root>', problems);
  return problems;
}

function check(schema: JsonSchema, value: unknown, path: string, problems: string[]): void {
  if (value === undefined || value === null) return;
  const before = problems.length;
  checkStructure(schema, value, path, problems);
  const rules = schema['x-kubernetes-validations'];
  if (rules?.length && problems.length === before) problems.push(...failedRules(rules, value, path));
}

function checkStructure(schema: JsonSchema, value: unknown, path: string, problems: string[]): void {
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        problems.push(`${path}: must be an object`);
        return;
      }
      const record = value as Record<string, unknown>;
      const properties = schema.properties;
      if (properties) {
        for (const [name, child] of Object.entries(properties)) {
          if (record[name] === undefined && child.default !== undefined) record[name] = structuredClone(child.default);
        }
        if (!schema['x-kubernetes-preserve-unknown-fields'] && path !== '<root>.metadata') {
          for (const name of Object.keys(record)) if (!(name in properties)) delete record[name];
        }
        for (const [name, child] of Object.entries(properties)) check(child, record[name], `${path}.${name}`, problems);
      }
      for (const name of schema.required ?? []) if (record[name] === undefined) problems.push(`${path}.${name}: Required value`);
      return;
    }
    case 'array': {
      if (!Array.isArray(value)) {
        problems.push(`${path}: must be an array`);
        return;
      }
      if (schema.maxItems !== undefined && value.length > schema.maxItems)
        problems.push(`${path}: must have at most ${schema.maxItems} items`);
      if (schema.items) value.forEach((item, index) => check(schema.items!, item, `${path}[${index}]`, problems));
      return;
    }
    case 'string': {
      if (typeof value !== 'string') {
        problems.push(`${path}: must be a string`);
        return;
      }
      if (schema.minLength !== undefined && value.length < schema.minLength)
        problems.push(`${path}: must be at least ${schema.minLength} characters`);
      if (schema.maxLength !== undefined && value.length > schema.maxLength)
        problems.push(`${path}: must be at most ${schema.maxLength} characters`);
      if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) problems.push(`${path}: must match ${schema.pattern}`);
      if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) problems.push(`${path}: must be a date-time`);
      break;
    }
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || (schema.type === 'integer' && !Number.isInteger(value))) {
        problems.push(`${path}: must be ${schema.type === 'integer' ? 'an integer' : 'a number'}`);
        return;
      }
      if (schema.minimum !== undefined && value < schema.minimum)
        problems.push(`${path}: must be greater than or equal to ${schema.minimum}`);
      if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path}: must be less than or equal to ${schema.maximum}`);
      break;
    }
    case 'boolean':
      if (typeof value !== 'boolean') problems.push(`${path}: must be a boolean`);
      break;
    default:
      break;
  }
  if (schema.enum && !schema.enum.includes(value))
    problems.push(
      `${path}: Unsupported value: ${JSON.stringify(value)}: supported values: ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`,
    );
}
