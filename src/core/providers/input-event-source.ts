// Global input events of a desktop session, as a recorder sees them (one implementation per platform:
// src/platform/x11/x11-record-source.ts reads X RECORD).

export interface RawInputEvent {
  /** X server time, ms. */
  readonly t: number;
  readonly ev: "key_down" | "key_up" | "button_down" | "button_up";
  readonly x: number;
  readonly y: number;
  readonly state: number;
  readonly button?: number;
  readonly keycode?: number;
  readonly keysym?: string;
  /** The character the key types, when it types one. */
  readonly char?: string;
  /** Host time (performance.now()) when the event was read. */
  readonly host: number;
}

export interface InputEventSource {
  /** Resolves once events flow; rejects with a typed error when recording is impossible. */
  start(onEvent: (e: RawInputEvent) => void): Promise<void>;
  stop(): Promise<void>;
}
