/**
 * The agent tools' one entry: a call by name, its input as the agent wrote it, and a result the agent reads —
 * never a thrown error (a bad input or a failing service is a result that says what to do). What a call would
 * send, for the confirmation asked before run_checks and send_payload. Pure; no `vscode` import.
 */
import { isToolName, LIMITS, type ToolName } from './definitions';
import type { ToolHost } from './host';
import { InputError } from './input';
import { getModel, listModels } from './models';
import { errorResult, type ToolResult } from './result';
import { planChecks, planSend, runChecks, sendPayload } from './runs';

const RUN: Record<ToolName, (input: unknown, host: ToolHost, signal: AbortSignal) => Promise<ToolResult>> = {
  list_models: listModels,
  get_model: getModel,
  run_checks: runChecks,
  send_payload: sendPayload,
};

export async function invokeTool(
  name: string,
  input: unknown,
  host: ToolHost,
  signal: AbortSignal,
): Promise<ToolResult> {
  if (!isToolName(name)) {
    return errorResult(`no tool is called ${JSON.stringify(name.slice(0, 60))}`, host.redact);
  }
  try {
    return await RUN[name](input, host, signal);
  } catch (e) {
    if (e instanceof InputError) {
      return errorResult(`${name}: ${e.message}`, host.redact);
    }
    // Never a stack trace; the message goes through the redactor like every result.
    return errorResult(`${name} failed: ${e instanceof Error ? e.message : String(e)}`, host.redact);
  }
}

/** What a call that sends would do, for the person to confirm: where to, how many requests, which files. */
export interface SendPlan {
  /** The services the requests go to, for people (no credentials). */
  services: string[];
  requests: number;
  files: string[];
  /** Why nothing would be sent (then nothing is asked: the call answers with this). */
  problem?: string;
}

/** The services of `names` (undefined: the active/default one), as their URLs, or the first problem. */
async function servicesOf(host: ToolHost, names: readonly (string | undefined)[]): Promise<string[] | string> {
  const out: string[] = [];
  for (const name of names) {
    const found = await host.describeService(name);
    if (typeof found !== 'string') {
      return found.problem;
    }
    out.push(found);
  }
  return out;
}

export async function planSending(name: ToolName, input: unknown, host: ToolHost): Promise<SendPlan | undefined> {
  try {
    if (name === 'run_checks') {
      const plan = await planChecks(input, host);
      const services = await servicesOf(host, plan.environments);
      return {
        services: typeof services === 'string' ? [] : services,
        requests: plan.requests,
        files: plan.files
          .filter((f) => !f.skipped)
          .map((f) => f.ref.name)
          .slice(0, LIMITS.files),
        problem: plan.problem ?? (typeof services === 'string' ? services : undefined),
      };
    }
    if (name === 'send_payload') {
      const plan = await planSend(input, host);
      if ('problem' in plan) {
        return { services: [], requests: 0, files: [], problem: plan.problem };
      }
      const services = await servicesOf(host, [plan.environment]);
      return {
        services: typeof services === 'string' ? [] : services,
        requests: 1,
        files: [plan.ref.name],
        problem: typeof services === 'string' ? services : undefined,
      };
    }
    return undefined;
  } catch (e) {
    return { services: [], requests: 0, files: [], problem: e instanceof Error ? e.message : String(e) };
  }
}
