// Typed call for window.go.bind.About: which build of the app this is (version, commit, build
// date), for the help overlay's About. Without the Go backend (vite dev, tests) there is none.
import { binding } from './wails';

/** hookstudio/app/platform/version.Info */
export interface AboutInfo {
  version: string;
  commit: string;
  date: string;
  goVersion: string;
  platform: string;
  /** false in a build without cgo, where the run history cannot be opened */
  history: boolean;
}

interface AboutBinding {
  Info(): Promise<AboutInfo>;
}

function realBinding(): AboutBinding | undefined {
  // wails.ts types window.go.bind for Studio only; About sits next to it.
  if (!binding()) return undefined;
  return (window.go?.bind as { About?: AboutBinding } | undefined)?.About;
}

/** The build's version info, or null without the Go backend. */
export async function aboutInfo(): Promise<AboutInfo | null> {
  const about = realBinding();
  return about ? about.Info() : null;
}

/** The one-line form hookctl --version prints: "0.3.0 (commit abc1234, built 2026-11-23)". */
export function versionLine(info: AboutInfo): string {
  const parts = [info.commit && `commit ${info.commit}`, info.date && `built ${info.date}`].filter(Boolean);
  return parts.length ? `${info.version} (${parts.join(', ')})` : info.version;
}
