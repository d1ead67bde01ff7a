import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { PROJECT_SCENARIOS, ScenarioPlaces } from './ScenarioPlaces';
import { configKind } from '../lib/api/configs';

describe('ScenarioPlaces', () => {
  it("names the folder's own scenario folder, which the registry claims for scenarios", () => {
    // the fixture is the backend's FileKinds: a file there is a scenario to the backend too
    expect(configKind(`${PROJECT_SCENARIOS}/try.yaml`)).toBe('scenario');
  });

  it("leads with the agent project's place in a folder without skills, with the skill's in one with", () => {
    const none = render(<p><ScenarioPlaces skills={0} /></p>).container.textContent!;
    expect(none.indexOf('.hookstudio/scenarios/*.yaml')).toBeGreaterThanOrEqual(0);
    expect(none.indexOf('.hookstudio/scenarios/')).toBeLessThan(none.indexOf('<skill>/scenarios/'));
    const some = render(<p><ScenarioPlaces skills={2} /></p>).container.textContent!;
    expect(some.indexOf('<skill>/scenarios/*.yaml')).toBeLessThan(some.indexOf('.hookstudio/scenarios/*.yaml'));
  });
});
