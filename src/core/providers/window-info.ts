import type { BBox } from "../geometry.js";

export interface WindowDescriptor {
  /** Platform window id (X11: the client window, "0x…"). */
  id: string;
  /** Title, UTF-8. */
  title: string;
  /** Application name: the WM_CLASS class on X11 ("Mousepad"). */
  appName: string;
  /** WM_CLASS instance on X11 ("mousepad"); empty where the platform has none. */
  instance: string;
  pid: number | null;
  /** Client area (without decorations) in screen coordinates. */
  bbox: BBox;
  /** Decoration widths around the client area (X11 `_NET_FRAME_EXTENTS`). */
  frame: { left: number; right: number; top: number; bottom: number };
  active: boolean;
  visible: boolean;
}

export interface WindowQuery {
  /** Exact title, or a pattern tested against the title. */
  title?: string | RegExp;
  /** Application name or instance, case-insensitive. */
  app?: string;
  pid?: number;
}

export interface WindowInfo {
  readonly name: string;
  list(signal?: AbortSignal): Promise<WindowDescriptor[]>;
  active(signal?: AbortSignal): Promise<WindowDescriptor | undefined>;
  /** Id of the active window only: cheaper than `active()`, for guards before each keystroke. */
  activeId(signal?: AbortSignal): Promise<string | undefined>;
  /** The window with this id, or undefined when it no longer exists. */
  get(id: string, signal?: AbortSignal): Promise<WindowDescriptor | undefined>;
  /** First window matching every given field of the query, active window first. */
  find(query: WindowQuery, signal?: AbortSignal): Promise<WindowDescriptor | undefined>;
  /** Polls until a window matches; TimeoutError naming the query after `timeoutMs`. */
  waitFor(query: WindowQuery, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WindowDescriptor>;
  /** Raises and focuses; WindowNotFoundError when the window is gone. */
  activate(id: string, signal?: AbortSignal): Promise<void>;
}

export function describeQuery(q: WindowQuery): string {
  const parts: string[] = [];
  if (q.title !== undefined) parts.push(`title ${q.title instanceof RegExp ? q.title.toString() : JSON.stringify(q.title)}`);
  if (q.app !== undefined) parts.push(`app "${q.app}"`);
  if (q.pid !== undefined) parts.push(`pid ${q.pid}`);
  return parts.join(", ") || "any window";
}

export function matchesQuery(w: WindowDescriptor, q: WindowQuery): boolean {
  if (q.pid !== undefined && w.pid !== q.pid) return false;
  if (q.app !== undefined) {
    const a = q.app.toLowerCase();
    if (w.appName.toLowerCase() !== a && w.instance.toLowerCase() !== a) return false;
  }
  if (q.title !== undefined) {
    if (typeof q.title === "string" ? w.title !== q.title : !q.title.test(w.title)) return false;
  }
  return true;
}
