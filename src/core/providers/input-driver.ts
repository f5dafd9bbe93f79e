import type { Point } from "../geometry.js";

export type MouseButton = "left" | "middle" | "right";

export interface MoveOptions {
  /** Path duration; default from the driver's speed setting and the distance. */
  durationMs?: number;
}

export interface TypeOptions {
  /** Mean delay between characters (ms). 0 types as fast as the platform allows. */
  meanDelayMs?: number;
  /** Uniform jitter around the mean (ms). */
  jitterMs?: number;
}

/**
 * Called before every unit of input (each character, each path segment). It throws (for example
 * WindowNotFoundError) to stop the action before any input reaches another window.
 */
export type InputGuard = (signal?: AbortSignal) => Promise<void>;

export interface ActionOptions {
  /**
   * Deliver only while this window exists and holds the keyboard focus (keys) or lies under the
   * pointer (clicks); otherwise WindowNotFoundError and nothing is sent. Drivers check this
   * atomically with the event where the platform allows (X11: inside a server grab).
   */
  targetWindow?: string;
  guard?: InputGuard;
  signal?: AbortSignal;
}

/** Mouse and keyboard. Points are screen coordinates. One implementation per platform. */
export interface InputDriver {
  readonly name: string;
  /** Named keys accepted by `key` ("Return", "ctrl", "F5"…), for error messages and docs. */
  readonly keyNames: readonly string[];
  cursor(signal?: AbortSignal): Promise<Point>;
  /** Moves along a human-like path (Bézier curve, easing). */
  move(to: Point, opts?: MoveOptions & ActionOptions): Promise<void>;
  /** Moves to `at` (if given) and clicks `count` times. */
  click(at: Point | undefined, opts?: { button?: MouseButton; count?: number } & MoveOptions & ActionOptions): Promise<void>;
  drag(from: Point, to: Point, opts?: { button?: MouseButton } & MoveOptions & ActionOptions): Promise<void>;
  /** Scrolls by notches: dy > 0 down, dx > 0 right. */
  scroll(at: Point | undefined, dy: number, dx?: number, opts?: ActionOptions): Promise<void>;
  /** Types text character by character: every printable ASCII character, newline, tab and Unicode text. */
  type(text: string, opts?: TypeOptions & ActionOptions): Promise<void>;
  /** Presses a key combination: "ctrl+s", "alt+F4", "ctrl+shift+t", "Return". */
  key(combo: string, opts?: ActionOptions): Promise<void>;
  close(): Promise<void>;
}
