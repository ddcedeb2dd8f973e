package io.rubinbft.net.shm;

import org.jspecify.annotations.Nullable;

/** A queue pair side's published state; anything but OPEN tells the peer the connection is over. */
enum SideState {
  OPEN(1),
  ERROR(2),
  DISCONNECTED(3),
  CLOSED(4);

  /** Cached: {@code values()} would allocate on every read of the word. */
  private static final SideState[] ALL = values();

  private final long code;

  SideState(long code) {
    this.code = code;
  }

  long code() {
    return code;
  }

  /** The state for a stored word, or null when the word is no state (a peer's garbage). */
  static @Nullable SideState of(long code) {
    for (SideState state : ALL) {
      if (state.code == code) {
        return state;
      }
    }
    return null;
  }
}
