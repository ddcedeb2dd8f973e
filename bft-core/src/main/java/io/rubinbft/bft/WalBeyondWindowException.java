package io.rubinbft.bft;

/**
 * A write-ahead log holds votes for sequences beyond the recovering replica's window: it was
 * written with a deeper window (an earlier version of the host derived a larger one from the same
 * config). Such a replica is not rebuilt from it. Its peers drop votes beyond the window, and a
 * view change that names a prepared certificate beyond it is refused, so the slots it holds there
 * could never be decided, and a new view computed over the smaller window could leave out a
 * proposal a quorum prepared and let another one take its sequence. The host must recover the log
 * with the window it was written with (the earlier version) until what it holds above its stable
 * checkpoint is decided.
 */
public final class WalBeyondWindowException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final long sequence;
  private final long stableSequence;
  private final int window;

  /**
   * @param what the record that is beyond the window
   * @param sequence the sequence it votes for
   * @param stableSequence the stable checkpoint the window starts at
   * @param window this replica's window
   */
  public WalBeyondWindowException(String what, long sequence, long stableSequence, int window) {
    super(
        "the write-ahead log holds "
            + what
            + " for sequence "
            + sequence
            + ", beyond this replica's window of "
            + window
            + " above its stable checkpoint "
            + stableSequence
            + " (sequences up to "
            + (stableSequence + window)
            + "): it was written with a deeper window");
    this.sequence = sequence;
    this.stableSequence = stableSequence;
    this.window = window;
  }

  public long sequence() {
    return sequence;
  }

  public long stableSequence() {
    return stableSequence;
  }

  public int window() {
    return window;
  }
}
