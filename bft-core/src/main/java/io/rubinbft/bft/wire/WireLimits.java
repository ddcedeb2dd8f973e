package io.rubinbft.bft.wire;

import static io.rubinbft.bft.Bounds.atLeast;

import io.rubinbft.bft.ReplicaConfig;

/**
 * What a decoder accepts (docs/ARCHITECTURE.md principle 7). Bytes that break a limit are invalid,
 * and are rejected before anything is allocated for them.
 *
 * @param replicas n: replica ids are in [0, n); certificates, proofs and the view changes in a new
 *     view hold at most n entries
 * @param maxRequestsPerProposal most requests in one proposal
 * @param maxRequestBytes most bytes of one request: client id and key (UTF-8) plus payload
 * @param maxBatchBytes most request bytes, summed as for {@code maxRequestBytes}, in one proposal
 * @param maxPayloadBytes most bytes of a proposal's application payload
 * @param maxSignatureBytes most bytes of one signature
 * @param maxSequencesPerMessage most sequence numbers one message covers: prepared certificates in
 *     a view change, re-proposals in a new view (a state-transfer answer is cut by bytes instead,
 *     {@link io.rubinbft.bft.message.Decisions.Budget}, and holds at most {@link
 *     io.rubinbft.bft.message.Decisions#MAX_COUNT} decisions)
 * @param maxMessageBytes most bytes of one encoded message or WAL record
 */
public record WireLimits(
    int replicas,
    int maxRequestsPerProposal,
    int maxRequestBytes,
    long maxBatchBytes,
    int maxPayloadBytes,
    int maxSignatureBytes,
    int maxSequencesPerMessage,
    int maxMessageBytes) {

  public WireLimits {
    atLeast("replicas", replicas, 1);
    atLeast("maxRequestsPerProposal", maxRequestsPerProposal, 0);
    atLeast("maxRequestBytes", maxRequestBytes, 0);
    atLeast("maxBatchBytes", maxBatchBytes, 0);
    atLeast("maxPayloadBytes", maxPayloadBytes, 0);
    atLeast("maxSignatureBytes", maxSignatureBytes, 0);
    atLeast("maxSequencesPerMessage", maxSequencesPerMessage, 0);
    atLeast("maxMessageBytes", maxMessageBytes, 2);
  }

  /**
   * The limits of a cluster running {@code config}. The payload and signature sizes belong to the
   * application (its ProposalAssembler and Crypto), so it names them. {@code maxMessageBytes} is
   * the largest message a correct replica can send under these limits (in practice a new view
   * carrying full view changes; see WIRE.md); a configuration whose largest message cannot fit a
   * Java array is rejected.
   */
  public static WireLimits of(ReplicaConfig config, int maxPayloadBytes, int maxSignatureBytes) {
    WireLimits unbounded =
        new WireLimits(
            config.replicas(),
            config.batchMaxCount(),
            config.requestMaxBytes(),
            config.batchMaxBytes(),
            maxPayloadBytes,
            maxSignatureBytes,
            config.window(),
            Integer.MAX_VALUE);
    long largest = new LargestMessage(unbounded).bytes();
    if (largest > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "the largest message under this configuration has "
              + largest
              + " bytes, more than a byte array holds");
    }
    return unbounded.withMaxMessageBytes((int) largest);
  }

  /**
   * The size of the largest message a correct replica can send under these limits (whatever their
   * {@code maxMessageBytes}): a host checks a configuration against its transport with it.
   */
  public long largestMessageBytes() {
    return new LargestMessage(this).bytes();
  }

  public WireLimits withMaxMessageBytes(int bytes) {
    return new WireLimits(
        replicas,
        maxRequestsPerProposal,
        maxRequestBytes,
        maxBatchBytes,
        maxPayloadBytes,
        maxSignatureBytes,
        maxSequencesPerMessage,
        bytes);
  }
}
