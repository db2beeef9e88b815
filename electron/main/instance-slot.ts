/**
 * The local instance the windows talk to, held so it can be swapped (a restore closes the
 * databases and opens them again) without re-registering the bridge. Requests that arrive
 * during a swap wait for the new instance instead of failing on a closed database, and
 * change listeners move over to it.
 */
import type { BridgeRequest, BridgeResponse, ChangeEvent } from '../../shared/ipc.js';
import type { LocalInstance } from '../host/local-instance.js';

type ChangeListener = (events: ChangeEvent[]) => void;
export type SlotInstance = Pick<LocalInstance, 'request' | 'onChange' | 'close'>;

export class InstanceSlot<T extends SlotInstance = LocalInstance> {
  private current: Promise<T>;
  private readonly listeners = new Set<ChangeListener>();
  private unsubscribe: (() => void) | undefined;
  private closed = false;

  constructor(first: Promise<T>) {
    this.current = this.attach(first);
    // Failures are reported through get(); this only keeps Node from calling it unhandled.
    this.current.catch(() => undefined);
  }

  get(): Promise<T> {
    return this.current;
  }

  async request(request: BridgeRequest): Promise<BridgeResponse> {
    return (await this.current).request(request);
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `work` with the current instance and makes what it returns the current one. `work`
   * must close the old instance if it replaces it, and must always return an open instance.
   */
  replace(work: (current: T) => Promise<T>): Promise<T> {
    const previous = this.current;
    this.current = this.attach(
      previous.then((old) => {
        this.unsubscribe?.();
        this.unsubscribe = undefined;
        return work(old);
      }),
    );
    return this.current;
  }

  /** Closes the instance (once); later requests fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    const instance = await this.current.catch(() => undefined);
    await instance?.close();
  }

  private attach(opening: Promise<T>): Promise<T> {
    return opening.then((instance) => {
      this.unsubscribe = instance.onChange((events) => {
        // Called inside the store's write path: one failing listener must not fail the write.
        for (const listener of this.listeners) {
          try {
            listener(events);
          } catch (error) {
            console.error('A change listener failed:', error);
          }
        }
      });
      return instance;
    });
  }
}
