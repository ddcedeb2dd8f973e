package io.rubinbft.bft;

/**
 * One fixed replica configuration of a channel's consensus, named by its anchor: the decision at
 * {@code sequence} with {@code digest} that the previous epoch ended with (for Fabric, the config
 * block that changed the consenter set or a consensus parameter). The epoch orders from {@code
 * sequence + 1} on. The genesis epoch is anchored at 0 with {@link Digest#GENESIS}.
 *
 * <p>Every statement a replica signs includes its epoch ({@link
 * io.rubinbft.bft.message.SignedBytes}), so a vote of one epoch never counts in another, where
 * replica indices and keys differ.
 */
public record Epoch(long sequence, Digest digest) {

  public static final Epoch GENESIS = new Epoch(0, Digest.GENESIS);

  public Epoch {
    if (sequence < 0 || digest == null) {
      throw new IllegalArgumentException("epoch anchor needs sequence >= 0 and a digest");
    }
  }

  /** The epoch that starts after {@code anchor}. */
  public static Epoch after(Decision anchor) {
    return new Epoch(anchor.sequence(), anchor.digest());
  }
}
