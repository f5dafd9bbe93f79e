import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Serialises access to one connection. Work started inside `exclusive` (transactions) runs
 * without waiting on the lock again, so a transaction's own statements do not deadlock.
 */
export class ConnectionLock<T = true> {
  private tail: Promise<void> = Promise.resolve();
  private readonly context = new AsyncLocalStorage<T>();

  /** The value given to `exclusive` when called from inside it, else undefined. */
  current(): T | undefined {
    return this.context.getStore();
  }

  async exclusive<R>(value: T, fn: () => Promise<R>): Promise<R> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((r) => (release = r));
    await previous;
    try {
      return await this.context.run(value, fn);
    } finally {
      release();
    }
  }
}
