// Export for another agent (issue 30): the open folder's hooks written in another agent's format —
// what cannot carry over at its source position, the files a write would create or change — and
// History's "run under another agent". Without the Go backend there is nothing to convert.
import type { studio } from './models';
import type { Diagnostic, Refine } from './types';
import { hasBackend, Studio } from './wails';

export type ConvertChoices = studio.ConvertChoices;
export type ConvertTarget = studio.ConvertTarget;
export type ConvertSource = studio.ConvertSource;
export type ConvertFile = studio.ConvertFile;
export type ConvertRequest = studio.ConvertRequest;
export type ConvertPlan = Refine<studio.ConvertPlan, {
  diagnostics: Diagnostic[]; source_diagnostics: Diagnostic[]; conflicts: Diagnostic[]; checked: Diagnostic[];
}>;

/** The folders with hooks and the agents they can be written for; null without a backend. */
export function convertChoices(): Promise<ConvertChoices | null> {
  return hasBackend() ? Studio.ConvertChoices() : Promise.resolve(null);
}
/** What writing the conversion would do; nothing is written. */
export const planConversion = (req: ConvertRequest): Promise<ConvertPlan> => Studio.PlanConversion(req) as Promise<ConvertPlan>;
/** Write the conversion the user confirmed (wrote: false when a file is in the way). */
export const writeConversion = (req: ConvertRequest): Promise<ConvertPlan> => Studio.WriteConversion(req) as Promise<ConvertPlan>;
/** Play the open folder's scenario file with its hooks converted for agent; the new run's id. */
export const renderUnder = (file: string, agent: string): Promise<number> => Studio.RenderUnder(file, agent);
