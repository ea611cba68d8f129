/** A tiny typed event emitter (no DOM needed, so the same code runs in Node tests and workers). */
export class Emitter<Events extends Record<string, unknown>> {
  private listeners = new Map<keyof Events, Set<(v: never) => void>>();

  on<K extends keyof Events>(type: K, cb: (value: Events[K]) => void): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(cb as (v: never) => void);
    return () => set.delete(cb as (v: never) => void);
  }

  protected emit<K extends keyof Events>(type: K, value: Events[K]): void {
    for (const cb of [...(this.listeners.get(type) ?? [])]) {
      try {
        (cb as (v: Events[K]) => void)(value);
      } catch (e) {
        console.error(e);
      }
    }
  }
}
