import { parse, type ParseResult } from '@marcbachmann/cel-js';

/** One `x-kubernetes-validations` entry of a CRD schema. */
export interface ValidationRule {
  rule: string;
  message?: string;
}

const compiled = new Map<string, ParseResult>();

function compile(rule: string): ParseResult {
  let program = compiled.get(rule);
  if (!program) {
    program = parse(rule);
    compiled.set(rule, program);
  }
  return program;
}

/** The JSON schema type the API server names in its "Invalid value" causes. */
function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : typeof value;
}

/**
 * Evaluates a node's CEL rules with `self` bound to the (defaulted) value, as the API server does after the
 * structural checks passed, and returns the API server's causes for the rules that do not hold:
 * `path: Invalid value: "object": message` (the rule itself when it has no message). A rule that cannot be
 * evaluated is reported too, never taken as passed. Transition rules (`oldSelf`) are not used by the CRD.
 */
export function failedRules(rules: ValidationRule[], value: unknown, path: string): string[] {
  const problems: string[] = [];
  for (const { rule, message } of rules) {
    let holds: unknown;
    try {
      holds = compile(rule)({ self: value });
    } catch (error) {
      problems.push(`${path}: Invalid value: "${typeName(value)}": rule evaluation error: ${(error as Error).message}`);
      continue;
    }
    if (holds !== true) problems.push(`${path}: Invalid value: "${typeName(value)}": ${message ?? `failed rule: ${rule}`}`);
  }
  return problems;
}
