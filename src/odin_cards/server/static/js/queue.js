// Updates that arrive together are shown one after the other at a readable pace (the
// table page's queue): a board's animations need the time to be seen. Speeds: "normal",
// "fast", "off" (the motion preference; prefers-reduced-motion starts at off). A board may
// hold the queue (a hand's summary to read) until it releases it or the hold runs out.

const PACE_MS = { normal: 650, fast: 250, off: 0 };

/** Updates applied one at a time, `pace` apart when they queue up. */
export class UpdateQueue {
  /** apply(msg) shows one update and returns whether it held a move worth a pause. */
  constructor(apply, getSpeed) {
    this.apply = apply;
    this.getSpeed = getSpeed;
    this.queue = [];
    this.timer = null;
    this.busyUntil = 0;
    this.holdUntil = 0;
  }

  /** Hold what comes next for `ms` (a hand's summary), or until release(). */
  hold(ms) {
    this.holdUntil = performance.now() + ms;
  }

  release() {
    this.holdUntil = 0;
    this.busyUntil = 0;
    clearTimeout(this.timer);
    this.pump();
  }

  push(msg) {
    this.queue.push(msg);
    if (!this.timer) this.pump();
  }

  /** Drop what is queued (a resync replaces it all). */
  clear() {
    this.queue = [];
  }

  pump() {
    this.timer = null;
    const wait = Math.max(this.busyUntil, this.holdUntil) - performance.now();
    if (this.queue.length && wait > 0) {
      this.timer = setTimeout(() => this.pump(), wait);
      return;
    }
    const msg = this.queue.shift();
    if (!msg) return;
    const moved = this.apply(msg);
    // A long queue (a reconnection, a fast bot table) catches up three times faster.
    const pace = PACE_MS[this.getSpeed()] || 0;
    this.busyUntil = performance.now() + (moved ? (this.queue.length > 6 ? pace / 3 : pace) : 0);
    if (this.queue.length) this.pump();
  }
}
