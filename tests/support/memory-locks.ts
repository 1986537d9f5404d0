/**
 * The Web Locks API (`navigator.locks`) as far as Keyplan uses it, for windows simulated in one test
 * process (happy-dom has none): exclusive locks by name, `ifAvailable`, waiting with an abort
 * `signal`, and `steal`, whose victim's request rejects with an AbortError as in browsers.
 * The real API is exercised by the two-tab Playwright test in Chromium.
 */
import type { LockManagerLike } from '../../src-renderer/state/window-link.ts';

interface Held {
  steal(): void;
}

export class MemoryLocks implements LockManagerLike {
  readonly #held = new Map<string, Held>();
  readonly #waiting = new Map<string, Array<() => void>>();

  isHeld(name: string): boolean {
    return this.#held.has(name);
  }

  async request(
    name: string,
    options: { ifAvailable?: boolean; steal?: boolean; signal?: AbortSignal },
    callback: (lock: unknown) => unknown,
  ): Promise<unknown> {
    if (options.steal) {
      const victim = this.#held.get(name);
      this.#held.delete(name);
      victim?.steal();
    }
    while (this.#held.has(name)) {
      if (options.ifAvailable) return callback(null);
      await new Promise<void>((resolve, reject) => {
        const queue = this.#waiting.get(name) ?? [];
        this.#waiting.set(name, queue);
        queue.push(resolve);
        options.signal?.addEventListener('abort', () => {
          queue.splice(queue.indexOf(resolve), 1);
          reject(new DOMException('The request was aborted.', 'AbortError'));
        });
      });
    }
    return new Promise((resolve, reject) => {
      const held: Held = { steal: () => reject(new DOMException('The lock was stolen.', 'AbortError')) };
      this.#held.set(name, held);
      Promise.resolve(callback({ name })).then(
        (value) => {
          if (this.#held.get(name) === held) {
            this.#held.delete(name);
            this.#waiting.get(name)?.shift()?.();
          }
          resolve(value);
        },
        reject,
      );
    });
  }
}
