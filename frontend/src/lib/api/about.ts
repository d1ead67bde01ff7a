// The bound About service: which build of the app this is (version, commit, build date), for the
// help overlay's About. Without the Go backend (vite dev, tests) there is none.
import type { version } from './models';
import { About, hasBackend } from './wails';

/** app/platform/version.Info; history is false in a build without cgo, where the run history cannot be opened */
export type AboutInfo = version.Info;

/** The build's version info, or null without the Go backend. */
export async function aboutInfo(): Promise<AboutInfo | null> {
  return hasBackend() ? About.Info() : null;
}

/** The one-line form hookctl --version prints: "0.3.0 (commit abc1234, built 2026-11-23)". */
export function versionLine(info: AboutInfo): string {
  const parts = [info.commit && `commit ${info.commit}`, info.date && `built ${info.date}`].filter(Boolean);
  return parts.length ? `${info.version} (${parts.join(', ')})` : info.version;
}
