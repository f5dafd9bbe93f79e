import { WindowNotFoundError } from "../../core/errors.js";
import type { InputGuard } from "../../core/providers/input-driver.js";
import type { WindowInfo } from "../../core/providers/window-info.js";

/**
 * A guard that lets input through only while `windowId` exists and is the active window, so no
 * keystroke or click lands in another window when the target closes or loses focus mid-action.
 */
export function activeWindowGuard(windows: WindowInfo, windowId: string, label = windowId): InputGuard {
  return async (signal) => {
    const active = await windows.activeId(signal);
    if (active === windowId) return;
    const still = await windows.get(windowId, signal);
    if (!still) throw new WindowNotFoundError(`Window ${label} is gone (closed?); input stopped before sending anything elsewhere.`, { details: { windowId } });
    throw new WindowNotFoundError(`Window ${label} is no longer the active window (active: ${active ?? "none"}); input stopped before sending anything elsewhere.`, {
      details: { windowId, active },
    });
  };
}
