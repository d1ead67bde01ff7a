// The bound Go types as Wails generates them (wailsjs/go/models.ts, scripts/bindings.sh). The rest
// of the frontend reads them through types.ts and the modules beside it, never from here.
export type { bind, calibrate, calibration, capture, diag, edit, engine, events, expect, history, layout, locate, loop, profile, profiles, recipe, registry, reqhook, search, sessions, skills, studio, version } from '../../../wailsjs/go/models';

// Wails v2.15's generator walks no embedded struct, so engine.ToolCall — reached only through the
// fields engine.Message and engine.LLMCall give studio.Message and studio.Call — is referenced by
// models.ts but never written. It is app/agent/engine.ToolCall, field for field.
declare module '../../../wailsjs/go/models' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- models.ts declares its types in namespaces
  namespace engine {
    interface ToolCall {
      id: string;
      name: string;
      arguments?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as Wails writes map[string]any
      result: string;
      error?: string;
      status?: string;
      by?: string;
      original_arguments?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above
    }
  }
}
