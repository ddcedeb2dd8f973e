package io.rubinbft.orderer.onboarding;

/** How a {@link BlockPuller#pullRange} or {@link BlockPuller#pullWhileClaimed} ended. */
public enum PullOutcome {

  /** The sink kept every block of the range. */
  COMPLETE,

  /**
   * No trusted source claims the next block of the range ({@link BlockPuller#pullWhileClaimed}):
   * only sources that broke a claim, or none, claim more.
   */
  UNCLAIMED,

  /** The puller was closed first. */
  CLOSED,

  /**
   * More than f sources sent a next block that the sink refused: at least one of them is correct,
   * so what the sink holds so far is not the channel's chain (a source made up a chain of its own
   * from block 0, which only the trust anchor at its end could have shown).
   */
  PREFIX_REFUSED
}
