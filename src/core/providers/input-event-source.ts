// Global input events of a desktop session, as a recorder sees them, in platform-neutral terms:
// keys by name and the character they type, modifiers by name, the window under the pointer at a
// press. One implementation per platform (src/platform/x11/x11-record-source.ts reads X RECORD).

export type ModifierName = "shift" | "ctrl" | "alt" | "super" | "altgr" | "capslock";

/** A top-level window as seen at the moment of an event. */
export interface EventWindow {
  readonly id: string;
  readonly title: string;
  readonly app: string;
  /** Client area in screen coordinates. */
  readonly bbox: readonly [number, number, number, number];
}

export interface RawInputEvent {
  /** Event time from the platform's clock, ms. */
  readonly t: number;
  readonly ev: "key_down" | "key_up" | "button_down" | "button_up";
  /** Pointer position on screen at the event. */
  readonly x: number;
  readonly y: number;
  /** Modifiers held when the event happened. */
  readonly modifiers: readonly ModifierName[];
  /** 1 left, 2 middle, 3 right, 4–7 wheel up/down/left/right, 8+ extra buttons. */
  readonly button?: number;
  /**
   * Key name as the key was bound at the event: the names `InputDriver.key` accepts ("Return",
   * "Tab", "a", "F5", "Shift_L"); absent when the key had no name then.
   */
  readonly key?: string;
  /** The character the key typed (a Unicode string), when it typed one. */
  readonly char?: string;
  /** Button press: the top-level window under the pointer at the press, when the platform tells. */
  readonly window?: EventWindow;
  /** Host time (performance.now()) when the event was read. */
  readonly host: number;
}

export interface InputEventSource {
  /** Resolves once events flow; rejects with a typed error when recording is impossible. */
  start(onEvent: (e: RawInputEvent) => void): Promise<void>;
  stop(): Promise<void>;
}
