package io.rubinbft.net.shm;

import org.jspecify.annotations.Nullable;

/** Where a connection request stands; one word in the connector's queue pair file. */
enum ConnectionState {
  REQUESTED(1),
  ACCEPTED(2),
  REJECTED(3),
  ABANDONED(4);

  /** Cached: {@code values()} would allocate on every read of the word. */
  private static final ConnectionState[] ALL = values();

  private final long code;

  ConnectionState(long code) {
    this.code = code;
  }

  long code() {
    return code;
  }

  /** The state for a stored word, or null when the word is no state (a peer's garbage). */
  static @Nullable ConnectionState of(long code) {
    for (ConnectionState state : ALL) {
      if (state.code == code) {
        return state;
      }
    }
    return null;
  }
}
