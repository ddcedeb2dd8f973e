package io.rubinbft.bft.wire;

import io.rubinbft.bft.CommitSignature;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ProposalBodies;
import io.rubinbft.bft.message.ViewChange;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** The largest values the limits allow: every list full, every byte field at its limit. */
final class MaximalValues {

  private final WireLimits limits;

  MaximalValues(WireLimits limits) {
    this.limits = limits;
  }

  /** As it travels: every proposal by digest. */
  NewView newView() {
    return ProposalBodies.hollowed(
        new NewView(
            1,
            full(limits.replicas(), this::viewChange),
            full(limits.maxSequencesPerMessage(), this::prePrepare),
            0,
            signature()));
  }

  /** A full state-transfer answer: as many full decisions as its budget lets through. */
  Decisions decisions() {
    List<Decision> decisions = new ArrayList<>();
    Decisions.Budget budget = new Decisions.Budget(Decisions.MAX_COUNT, Decisions.MAX_ANSWER_BYTES);
    Decision decision = decision();
    while (budget.take(decision)) {
      decisions.add(decision);
    }
    return new Decisions(decisions, 0);
  }

  /** The one record that holds a body and a quorum of votes. */
  PreparedCertificate preparedCertificate() {
    return new PreparedCertificate(
        prePrepare(), full(limits.replicas(), () -> new Prepare(0, 1, digest(), 1, signature())));
  }

  private ViewChange viewChange() {
    return new ViewChange(
        1,
        0,
        digest(),
        full(limits.replicas(), () -> new Checkpoint(0, digest(), 0, signature())),
        decision(),
        full(
            limits.maxSequencesPerMessage(),
            () ->
                new PreparedCertificate(
                    prePrepare(),
                    full(limits.replicas(), () -> new Prepare(0, 1, digest(), 1, signature())))),
        0,
        signature());
  }

  private Decision decision() {
    return new Decision(
        proposal(),
        digest(),
        Long.MAX_VALUE,
        full(limits.replicas(), () -> new CommitSignature(0, signature())));
  }

  private PrePrepare prePrepare() {
    return new PrePrepare(0, 1, digest(), proposal(), 0, signature());
  }

  /** Full of requests whose bytes add up to the batch limit, or each at the request limit. */
  private Proposal proposal() {
    int count = limits.maxRequestsPerProposal();
    long total = Math.min(limits.maxBatchBytes(), (long) count * limits.maxRequestBytes());
    List<Request> requests = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int size = (int) (total / count + (i < total % count ? 1 : 0));
      requests.add(new Request(new RequestId("", ""), new byte[size]));
    }
    return new Proposal(1, digest(), requests, new byte[limits.maxPayloadBytes()]);
  }

  private static Digest digest() {
    return new Digest(new byte[WireReader.MAX_DIGEST_BYTES]);
  }

  private byte[] signature() {
    return new byte[limits.maxSignatureBytes()];
  }

  private static <T> List<T> full(int size, Supplier<T> element) {
    List<T> list = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      list.add(element.get());
    }
    return list;
  }
}
