package io.rubinbft.bft.wire;

import io.rubinbft.bft.message.Decisions;

/**
 * The size of the largest message a correct replica can send under some limits, field by field as
 * {@link BodyWriter} lays them out (a test builds such maximal messages and compares). A WAL record
 * holds at most one message's worth, so the same bound covers records. View changes and new views
 * carry proposals by digest, so no message holds more than one proposal's body, except a
 * state-transfer answer, which holds at most {@link Decisions#MAX_ANSWER_BYTES} of decisions, or
 * one decision larger than that.
 */
final class LargestMessage {

  private static final int HEADER = 2;
  private static final int LONG = Long.BYTES;
  private static final int INT = Integer.BYTES;
  private static final int BOOLEAN = 1;
  private static final long DIGEST = INT + WireReader.MAX_DIGEST_BYTES;

  private final WireLimits limits;
  private final long signature;

  LargestMessage(WireLimits limits) {
    this.limits = limits;
    this.signature = INT + (long) limits.maxSignatureBytes();
  }

  long bytes() {
    long oneProposal = Math.max(preparedCertificate(), INT + proposal());
    return HEADER + Math.max(Math.max(oneProposal, newView()), decisions());
  }

  private long replicas() {
    return limits.replicas();
  }

  private long sequences() {
    return limits.maxSequencesPerMessage();
  }

  private long proposal() {
    long requests = limits.maxRequestsPerProposal();
    long requestBytes = Math.min(limits.maxBatchBytes(), requests * limits.maxRequestBytes());
    return LONG + DIGEST + INT + requests * 3 * INT + requestBytes + INT + limits.maxPayloadBytes();
  }

  /** A proposal by digest: its sequence and predecessor. */
  private long hollowProposal() {
    return LONG + DIGEST;
  }

  private long prePrepare() {
    return 2 * LONG + DIGEST + proposal() + INT + signature;
  }

  private long hollowPrePrepare() {
    return 2 * LONG + DIGEST + hollowProposal() + INT + signature;
  }

  private long vote() {
    return 2 * LONG + DIGEST + INT + signature;
  }

  private long checkpoint() {
    return LONG + DIGEST + INT + signature;
  }

  private long decision() {
    return proposal() + DIGEST + LONG + INT + replicas() * (INT + signature);
  }

  private long hollowDecision() {
    return hollowProposal() + DIGEST + LONG + INT + replicas() * (INT + signature);
  }

  private long preparedCertificate() {
    return prePrepare() + INT + replicas() * vote();
  }

  private long hollowCertificate() {
    return hollowPrePrepare() + INT + replicas() * vote();
  }

  private long viewChange() {
    return 2 * LONG
        + DIGEST
        + INT
        + replicas() * checkpoint()
        + BOOLEAN
        + hollowDecision()
        + INT
        + sequences() * hollowCertificate()
        + INT
        + signature;
  }

  private long newView() {
    return LONG
        + INT
        + replicas() * viewChange()
        + INT
        + sequences() * hollowPrePrepare()
        + INT
        + signature;
  }

  /**
   * An answer holds at most {@link Decisions#MAX_COUNT} decisions and, beyond its first, at most
   * the answer's byte budget ({@link Decisions.Budget} counts encoded bytes exactly). The budget
   * includes the first decision, so this is not tight; it is the bound hosts derive their proposal
   * caps with (the orderer's Pipeline), kept so that a channel's limits stay what they were.
   */
  private long decisions() {
    return INT
        + Math.min(Decisions.MAX_COUNT * decision(), decision() + Decisions.MAX_ANSWER_BYTES)
        + INT;
  }
}
