package io.rubinbft.orderer.memory;

import io.rubinbft.bft.message.Decisions;

/**
 * The replica network's message limit and the consensus limits derived from it, in this one place
 * (orderer/docs/MEMORY.md). Every consensus message a correct replica builds must fit one transport
 * message: view changes and new views name proposals by digest, so the largest holds one proposal
 * (or a state-transfer answer of at most {@link #DECISIONS_ANSWER_BYTES} beyond its first block),
 * and a channel's proposal cap is chosen at config time so that it fits ({@code Pipeline}); a frame
 * that still does not fit is dropped on its own and closes nothing.
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

  /** Largest proposal payload: a block header and unsigned metadata, with room to spare. */
  public static final int MAX_PAYLOAD_BYTES = 64 << 10;

  /** Largest signature: a MetadataSignature (identifier header, nonce, DER ECDSA) or a vote. */
  public static final int MAX_SIGNATURE_BYTES = 1 << 10;

  /**
   * Messages larger than this (proposals, state-transfer answers, bodies, forwarded envelopes) wait
   * in a lane of their own wherever a peer's messages wait: in the link's outbound queue to that
   * peer ({@code cluster.OutboundQueue}) and in the peer's input queue of each replica ({@code
   * consensus.ReplicaInputs}). The smaller ones (votes, status, checkpoints, fetch requests) are
   * what keeps a view alive, so a maximal proposal waiting never holds them up or pushes them out,
   * and they never push it out.
   */
  public static final int LARGE_MESSAGE_BYTES = 64 << 10;

  /** Whether a message (or frame) of {@code bytes} goes to the large lane. */
  public static boolean isLarge(long bytes) {
    return bytes > LARGE_MESSAGE_BYTES;
  }

  /** The largest consensus message: a transport message less the largest cluster frame header. */
  public static final int CONSENSUS_MAX_MESSAGE_BYTES =
      TRANSPORT_MAX_MESSAGE_BYTES - MAX_FRAME_HEADER_BYTES;

  /**
   * The least request bytes of proposals a primary keeps in flight above its stable checkpoint
   * (bft-core's window in bytes, {@code Pipeline}): one and a half of Fabric's default
   * AbsoluteMaxBytes (10 MB), and one and a half proposals at the channel's cap where that is more.
   * A backup holds at most twice it above its stable checkpoint, and the decisions it retains for
   * peers catching up fit it once, so a channel costs about three times this on the heap at most
   * for its blocks (4 blocks of 10 MB, what its window of 2 held before), and a node the sum over
   * the channels it serves, which it checks when it joins one (orderer/docs/MEMORY.md "Sizing").
   * Small blocks keep the deepest window (64 in flight, a checkpoint every 8): it counts the bytes
   * of the blocks actually cut, not of the cap. Catching up does not depend on it: a state-transfer
   * answer is cut by bytes ({@link #answerBytes}).
   */
  public static final long WINDOW_BYTES_LEAST = 15L << 20;

  /**
   * Most bytes of decisions in a state-transfer answer that bft-core builds or decodes (at least
   * one decision is always sent, at most 1,024): its message limits count it in. This node's
   * answers are cut smaller ({@link #answerBytes}).
   */
  public static final long DECISIONS_ANSWER_BYTES = Decisions.MAX_ANSWER_BYTES;

  /**
   * Most bytes of decisions (at their encoded size) in one state-transfer answer this node sends,
   * whether its replica answers from the decisions it holds in memory or its host reads them from
   * the ledger (bft-core's {@code ReplicaConfig.answerMaxBytes} cuts both): {@link
   * #DECISIONS_ANSWER_BYTES}, and at most half of what one peer's link ({@link
   * MemoryBudgets#peerLinkBytes}) and each lane of its input queue at the receiver ({@link
   * MemoryBudgets#peerInputBytes}) hold, so that an answer passes both beside the other large
   * messages that travel with it: a frame over a link's budget pushes out what waits and is pushed
   * out by the next, and a peer's input over its lane's budget is refused unless that lane holds
   * nothing else, so a larger answer would often be lost, and the asker would wait out its fetch
   * deadline and distrust a correct source. The budgets are fixed bytes, so all nodes agree on it.
   */
  public static long answerBytes(MemoryBudgets budgets) {
    return Math.min(
        DECISIONS_ANSWER_BYTES, Math.min(budgets.peerLinkBytes(), budgets.peerInputBytes()) / 2);
  }

  private MessageLimits() {}
}
