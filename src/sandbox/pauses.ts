// Timers the server can cancel all at once, so close() never waits on a stalled response.

export class Pauses {
  private readonly pending = new Set<() => void>();
  private cancelled = false;

  /** Resolves true after `ms`, or false at once if the pauses were (or get) cancelled. */
  wait(ms: number): Promise<boolean> {
    if (this.cancelled) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (elapsed: boolean) => {
        clearTimeout(timer);
        this.pending.delete(cancel);
        resolve(elapsed);
      };
      const cancel = () => finish(false);
      const timer = setTimeout(() => finish(true), ms);
      this.pending.add(cancel);
    });
  }

  cancelAll(): void {
    this.cancelled = true;
    for (const cancel of [...this.pending]) cancel();
  }
}
