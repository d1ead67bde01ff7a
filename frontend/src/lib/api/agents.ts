// Agent CLI versions (issue 27): Settings ▸ Agents — the CLIs found with their rendering profiles and
// calibrations with their progress —, the version Claude Code's hooks render as (the picker beside
// "hosts as"), and History's "render with another version". Without the Go backend there is none.
import type { calibration, studio } from './models';
import type { StudioState } from './types';
import { Agents, hasBackend, on, Studio } from './wails';

/** An agent CLI as Settings ▸ Agents lists it: path ("" not found), version, profile bundled/calibrated/none. */
export type AgentCLI = calibration.CLI;
/** The calibration running or last finished: progress lines, the result's differences, or why it failed. */
export type CalibrationState = calibration.State;
/** The picker: the version chosen ("" automatic), every known profile, the installed CLI. */
export type AgentChoice = studio.AgentChoice;

export const CLAUDE_CODE = 'claude-code';
const EVENT_CALIBRATION = 'agents:calibration';

export function agentCLIs(): Promise<AgentCLI[] | null> {
  return hasBackend() ? Agents.CLIs() : Promise.resolve(null);
}
export function calibrationState(): Promise<CalibrationState | null> {
  return hasBackend() ? Agents.CalibrationState() : Promise.resolve(null);
}
/** Start calibrating cli (the agent's; "" the one on PATH); progress follows as onCalibration events. */
export const calibrate = (agent: string, cli: string): Promise<CalibrationState> => Agents.Calibrate(agent, cli);
export const cancelCalibration = (): Promise<CalibrationState> => Agents.CancelCalibration();
/** Listen to the calibration's progress; returns the function that stops listening. */
export function onCalibration(cb: (s: CalibrationState) => void): () => void {
  return hasBackend() ? on(EVENT_CALIBRATION, cb) : () => {};
}

export function agentChoice(): Promise<AgentChoice | null> {
  return hasBackend() ? Studio.AgentChoice() : Promise.resolve(null);
}
/** Render Claude Code's hooks as version ("": automatic) and simulate again. */
export const setAgentVersion = (version: string): Promise<StudioState> => Studio.SetAgentVersion(version) as Promise<StudioState>;
/** Play the open folder's scenario file again rendered as agent (claude-code@VERSION); the new run's id. */
export const renderAs = (file: string, agent: string): Promise<number> => Studio.RenderAs(file, agent);

/** "claude-code@2.1.332" → "2.1.332" (the agent's own versions), else the ref as it is. */
export function versionOf(ref: string | undefined): string {
  if (!ref) return '';
  const at = ref.indexOf('@');
  return at >= 0 ? ref.slice(at + 1) : ref;
}
