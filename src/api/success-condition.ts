// A Prometheus analysis' successCondition: a CEL expression over `result` (the query's value, a double) and,
// when the analysis has a baselineQuery, `baseline` (its value), evaluated by @bufbuild/cel — CEL as the rest of
// Kubernetes writes it (`result < 0.05`, `result <= baseline * 1.5`). Validation compiles it (a syntax error,
// an unknown variable or a value that is not a bool is refused with the field's path); the controller's prober
// evaluates the compiled program on each check's values. CEL does no implicit int/double arithmetic:
// `baseline * 1.5` works, `baseline * 2` does not (write `2.0`); comparisons mix them freely.

import { celEnv, CelScalar, isCelError, parse, plan, type CelEnv } from '@bufbuild/cel';

export interface ConditionValues {
  result: number;
  baseline?: number;
}

/** A compiled condition: true or false for the values, or an Error (CEL's runtime error, e.g. no matching overload). */
export type ConditionProgram = (values: ConditionValues) => boolean | Error;

export type CompiledCondition = { ok: true; program: ConditionProgram } | { ok: false; message: string };

/** The longest expression accepted (the CRD's maxLength). */
export const MAX_CONDITION_LENGTH = 1024;

const withBaselineEnv: CelEnv = celEnv({ variables: { result: CelScalar.DOUBLE, baseline: CelScalar.DOUBLE } });
const resultOnlyEnv: CelEnv = celEnv({ variables: { result: CelScalar.DOUBLE } });

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Compiles `text`; `withBaseline`: the analysis has a baselineQuery, so `baseline` is bound. A trial run with
 * both values 1 catches what the parser does not (an unknown variable, a non-bool result, no matching overload)
 * on the paths that run; what short-circuit evaluation skips is caught when a check runs it (errorPolicy).
 */
export function compileCondition(text: string, withBaseline: boolean): CompiledCondition {
  let evaluate: ReturnType<typeof plan>;
  try {
    evaluate = plan(withBaseline ? withBaselineEnv : resultOnlyEnv, parse(text));
  } catch (err) {
    return { ok: false, message: `not a CEL expression: ${messageOf(err)}` };
  }
  const program: ConditionProgram = (values) => {
    let out: unknown;
    try {
      out = evaluate(withBaseline ? { result: values.result, baseline: values.baseline ?? Number.NaN } : { result: values.result });
    } catch (err) {
      return new Error(messageOf(err));
    }
    if (isCelError(out)) return new Error(unresolved(out.message, withBaseline));
    return typeof out === 'boolean' ? out : new Error(`evaluates to ${typeof out}, not a bool`);
  };
  const trial = program({ result: 1, baseline: 1 });
  return trial instanceof Error ? { ok: false, message: trial.message } : { ok: true, program };
}

/** CEL says "unresolved attribute" for a name it does not know: say which names it knows. */
function unresolved(message: string, withBaseline: boolean): string {
  if (!message.includes('unresolved attribute')) return message;
  return withBaseline ? 'refers to a variable other than result and baseline' : 'refers to a variable other than result (baseline needs a baselineQuery)';
}
