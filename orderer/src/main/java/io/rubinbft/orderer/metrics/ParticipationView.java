package io.rubinbft.orderer.metrics;

import java.util.Map;
import java.util.Optional;

/**
 * One channel this node has joined, as the metrics read it at scrape time, whatever its relation: a
 * consenter, a follower, or a channel being onboarded or caught up by pulling blocks.
 *
 * @param channel the channel's name
 * @param relation this node's consensus relation to the channel
 * @param status the channel participation status
 * @param ledgerHeight blocks in the channel's ledger
 * @param pulling what the block puller of a follower, an onboarding or a catch-up has done; empty
 *     while the channel's blocks come from consensus
 */
public record ParticipationView(
    String channel,
    Relation relation,
    Status status,
    long ledgerHeight,
    Optional<Pulling> pulling) {

  /** Fabric's consensus relations this node can have, with Fabric's gauge values. */
  public enum Relation {
    CONSENTER(1),
    FOLLOWER(2);

    private final int fabricValue;

    Relation(int fabricValue) {
      this.fabricValue = fabricValue;
    }

    /** The value of Fabric's {@code participation_consensus_relation} gauge. */
    int fabricValue() {
      return fabricValue;
    }
  }

  /** Fabric's channel participation statuses this node can report, with Fabric's gauge values. */
  public enum Status {
    ACTIVE(1),
    ONBOARDING(2),
    FAILED(3);

    private final int fabricValue;

    Status(int fabricValue) {
      this.fabricValue = fabricValue;
    }

    /** The value of Fabric's {@code participation_status} gauge. */
    int fabricValue() {
      return fabricValue;
    }
  }

  /**
   * A block puller's counters.
   *
   * @param source the orderer blocks are pulled from now ({@code host:port}), if any
   * @param blocksPulled blocks pulled, checked and kept since the puller started
   * @param refusedByReason pulled blocks discarded since then, by the check they failed
   * @param distrustedSources sources that did not serve a height they claimed or sent a bad block
   */
  public record Pulling(
      Optional<String> source,
      long blocksPulled,
      Map<String, Long> refusedByReason,
      int distrustedSources) {

    public Pulling {
      refusedByReason = Map.copyOf(refusedByReason);
    }
  }
}
