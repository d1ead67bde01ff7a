// Where a folder's scenarios go, for the empty states that say none were found: scenario.Discover
// reads each skill's scenarios/ and the folder's own .hookstudio/scenarios/, where a project of an
// agent (Claude Code, Codex, Gemini CLI, …) keeps them (the registry's scenario files). A folder
// with skills hears of both; one without (an agent's project, an empty folder) of its own first.

/** The folder's own scenarios (scenario.ProjectScenarioDir), root-relative. */
export const PROJECT_SCENARIOS = '.hookstudio/scenarios';

export function ScenarioPlaces({ skills }: { skills: number }) {
  const project = <code>{PROJECT_SCENARIOS}/*.yaml</code>;
  const skill = <code>&lt;skill&gt;/scenarios/*.yaml</code>;
  return skills > 0
    ? <>add one under {skill}, or under {project} for the folder&apos;s own hooks</>
    : <>add one under {project}, where an agent&apos;s project keeps its scenarios (or under {skill} in a skill folder)</>;
}
