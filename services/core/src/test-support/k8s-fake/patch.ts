/** RFC 7386 JSON merge patch (also used for strategic-merge patches, which the fake treats alike). */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const result: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}

export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'test' | 'move' | 'copy';
  path: string;
  value?: unknown;
  from?: string;
}

export class PatchError extends Error {}

/** RFC 6902 JSON patch: add, remove, replace, test (move and copy are refused as unsupported). */
export function jsonPatch(target: unknown, operations: JsonPatchOperation[]): unknown {
  const document = structuredClone(target);
  for (const operation of operations) {
    const tokens = operation.path
      .split('/')
      .slice(1)
      .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    const last = tokens.pop();
    if (last === undefined) throw new PatchError(`path "${operation.path}" must point into the object`);
    let parent: unknown = document;
    for (const token of tokens) {
      parent = (parent as Record<string, unknown> | undefined)?.[token];
      if (parent === null || typeof parent !== 'object') throw new PatchError(`path "${operation.path}" does not exist`);
    }
    const container = parent as Record<string, unknown>;
    switch (operation.op) {
      case 'add':
        if (Array.isArray(container)) container.splice(last === '-' ? container.length : Number(last), 0, operation.value);
        else container[last] = operation.value;
        break;
      case 'replace':
        if (!(last in container)) throw new PatchError(`path "${operation.path}" does not exist`);
        container[last] = operation.value;
        break;
      case 'remove':
        if (!(last in container)) throw new PatchError(`path "${operation.path}" does not exist`);
        if (Array.isArray(container)) container.splice(Number(last), 1);
        else delete container[last];
        break;
      case 'test':
        if (JSON.stringify(container[last]) !== JSON.stringify(operation.value)) throw new PatchError(`test of "${operation.path}" failed`);
        break;
      default:
        throw new PatchError(`unsupported patch operation ${operation.op}`);
    }
  }
  return document;
}
