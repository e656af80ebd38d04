// The field names a schema accepts at a path, for "did you mean" hints.
import type * as z from "zod";

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; element?: z.ZodType; valueType?: z.ZodType; options?: z.ZodType[]; in?: z.ZodType };

function def(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const d = def(s);
    if ((d.type === "default" || d.type === "optional" || d.type === "nullable" || d.type === "prefault") && d.innerType) s = d.innerType;
    else if (d.type === "pipe" && d.in) s = d.in;
    else return s;
  }
}

export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let candidates = [schema];
  for (const seg of path) {
    const next: z.ZodType[] = [];
    for (const c of candidates.flatMap(expand)) {
      const d = def(c);
      if (d.type === "object" && d.shape && typeof seg === "string" && d.shape[seg]) next.push(d.shape[seg]);
      else if (d.type === "array" && d.element && typeof seg === "number") next.push(d.element);
      else if (d.type === "record" && d.valueType) next.push(d.valueType);
    }
    candidates = next;
  }
  const keys = new Set<string>();
  for (const c of candidates.flatMap(expand)) {
    const d = def(c);
    if (d.type === "object" && d.shape) for (const k of Object.keys(d.shape)) keys.add(k);
  }
  return [...keys];
}

function expand(schema: z.ZodType): z.ZodType[] {
  const s = unwrap(schema);
  const d = def(s);
  return d.type === "union" && d.options ? d.options.flatMap(expand) : [s];
}
