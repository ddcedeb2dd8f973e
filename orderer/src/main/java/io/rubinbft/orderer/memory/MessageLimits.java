package io.rubinbft.orderer.memory;

/**
 * The replica network's message limit and the consensus limits derived from it, in this one place
 * (orderer/docs/MEMORY.md). Every consensus message a correct replica builds must fit one transport
 * message: the channel's pipeline window and proposal size are chosen at config time so that the
 * largest one (a new view carrying a view change from every replica, each with a full window of
 * prepared proposals) does ({@code ChannelReplicas}); a frame that still does not fit is dropped on
 * its own and closes nothing.
 */
public final class MessageLimits {

  /**
   * The largest message the replica network carries (rdma-net reassembles it in a buffer of the
   * link, freed after delivery), and so the most heap one received message takes.
   */
  public static final int TRANSPORT_MAX_MESSAGE_BYTES = 16 << 20;

  /**
   * The most bytes a cluster frame adds to its message (ClusterFrames): the name's length, the
   * longest channel name Fabric allows (249 bytes) and the epoch.
   */
  public static final int MAX_FRAME_HEADER_BYTES = 2 + 249 + Long.BYTES;

  /** The largest consensus message: a transport message less the largest cluster frame header. */
  public static final int CONSENSUS_MAX_MESSAGE_BYTES =
      TRANSPORT_MAX_MESSAGE_BYTES - MAX_FRAME_HEADER_BYTES;

  /**
   * The proposal size a channel's window shrinks for: a window is chosen only if proposals of this
   * size (or the channel's batch limit, when smaller) still fit its largest message. Not larger,
   * since a smaller window also means fewer blocks per state-transfer answer, and so a slower
   * catch-up.
   */
  public static final long PREFERRED_MIN_PROPOSAL_BYTES = 100 << 10;

  /**
   * Most block bytes in one state-transfer answer served from the ledger (at least one block is
   * always sent): a peer catching up costs this node and the peer this much heap per answer, not a
   * window of blocks.
   */
  public static final long DECISIONS_ANSWER_BYTES = 4 << 20;

  private MessageLimits() {}
}
