package io.rubinbft.net.fragment;

import io.rubinbft.net.memory.DirectMemory;
import org.agrona.concurrent.UnsafeBuffer;
import org.jspecify.annotations.Nullable;

/**
 * Direct memory for one message at a time, reassembled or staged. Messages up to {@link
 * #RETAINED_BYTES} share one buffer kept for the channel's life; a larger one gets a buffer of its
 * exact size, freed as soon as {@link #release} says the message is done. A replica's links carry
 * proposals as large as a block (about 2 MB for 500 transactions of 3.5 KB): kept, such buffers
 * held megabytes per link that nothing used between proposals, which put a node over its memory
 * budget. {@link #close} frees the kept buffer too, when the channel closes.
 */
final class MessageBuffer {

  /**
   * Largest buffer kept between messages: a proposal of 100 transactions of 3.5 KB, or any message
   * of the consensus protocol but a large proposal, fits.
   */
  static final int RETAINED_BYTES = 512 * 1024;

  /** The first buffer's size; kept buffers grow in powers of two from it. */
  private static final int INITIAL_BYTES = 64 * 1024;

  private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
  private @Nullable DirectMemory storage;

  /** Makes {@link #view} at least {@code bytes} long, its contents undefined, and returns it. */
  UnsafeBuffer sized(int bytes) {
    if (capacity() < bytes) {
      free();
      int kept = Math.max(INITIAL_BYTES, Integer.highestOneBit(bytes - 1) << 1);
      DirectMemory allocated =
          new DirectMemory(bytes > RETAINED_BYTES ? bytes : Math.min(kept, RETAINED_BYTES));
      storage = allocated;
      view.wrap(allocated.buffer());
    }
    return view;
  }

  /** The message is done with: a buffer larger than {@link #RETAINED_BYTES} is freed now. */
  void release() {
    if (capacity() > RETAINED_BYTES) {
      free();
    }
  }

  /** The channel is gone: whatever buffer is held is freed now (and allocated again if used). */
  void close() {
    free();
  }

  // Freed at once rather than by the collector, which may not run for long on a quiet heap.
  private void free() {
    DirectMemory held = storage;
    if (held != null) {
      view.wrap(0, 0);
      storage = null;
      held.close();
    }
  }

  /** The buffer (empty while none is held). */
  UnsafeBuffer view() {
    return view;
  }

  /** Direct bytes held now. */
  int capacity() {
    DirectMemory held = storage;
    return held == null ? 0 : held.capacity();
  }
}
