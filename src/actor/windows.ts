// Window names as the actor compares them: a title without its modified marker and spacing, folded;
// an app by class or instance, case-insensitive. One place for every comparison.
import type { WindowDescriptor } from "../core/providers/window-info.js";
import { foldText } from "../core/text.js";

export function normTitle(t: string): string {
  return foldText(t).replace(/^\s*\*\s*/, "").replace(/\s+/g, " ").trim();
}

export function isModified(t: string): boolean {
  return /^\s*\*/.test(t);
}

export function ofApp(app: string): (w: WindowDescriptor) => boolean {
  const a = app.toLowerCase();
  return (w) => !a || w.appName.toLowerCase() === a || w.instance.toLowerCase() === a;
}

/** Windows of `app` titled `title` (already filled with the row's data), active first. */
export function windowsNamed(list: readonly WindowDescriptor[], app: string, title: string): WindowDescriptor[] {
  const t = normTitle(title);
  const inApp = ofApp(app);
  return list.filter((w) => inApp(w) && normTitle(w.title) === t).sort((x, y) => Number(y.active) - Number(x.active));
}
