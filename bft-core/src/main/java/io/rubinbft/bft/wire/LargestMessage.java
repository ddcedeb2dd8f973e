package io.rubinbft.bft.wire;

/**
 * The size of the largest message a correct replica can send under some limits, field by field as
 * {@link BodyWriter} lays them out (a test builds such maximal messages and compares). A WAL record
 * holds at most one message's worth, so the same bound covers records.
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
    return HEADER + Math.max(newView(), decisions());
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

  private long prePrepare() {
    return 2 * LONG + DIGEST + proposal() + INT + signature;
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

  private long preparedCertificate() {
    return prePrepare() + INT + replicas() * vote();
  }

  private long viewChange() {
    return 2 * LONG
        + DIGEST
        + INT
        + replicas() * checkpoint()
        + BOOLEAN
        + decision()
        + INT
        + sequences() * preparedCertificate()
        + INT
        + signature;
  }

  private long newView() {
    return LONG
        + INT
        + replicas() * viewChange()
        + INT
        + sequences() * prePrepare()
        + INT
        + signature;
  }

  private long decisions() {
    return INT + sequences() * decision() + INT;
  }
}
