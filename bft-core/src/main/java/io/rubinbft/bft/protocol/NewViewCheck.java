package io.rubinbft.bft.protocol;

import io.rubinbft.bft.Quorums;
import io.rubinbft.bft.ReplicaConfig;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ViewChange;
import java.util.List;
import java.util.Optional;

/**
 * A backup's check of a new view: a quorum of distinct, valid view changes for that view, and
 * re-proposals exactly as {@link NewViewComputation} derives them from those view changes.
 */
final class NewViewCheck {

  private final ReplicaConfig config;
  private final Quorums quorums;
  private final MessageValidator validator;

  NewViewCheck(ReplicaConfig config, MessageValidator validator) {
    this.config = config;
    this.quorums = new Quorums(config.replicas());
    this.validator = validator;
  }

  Optional<String> invalidReason(NewView newView) {
    Optional<String> reason = validator.viewChangesReason(newView, true);
    if (reason.isPresent()) {
      return reason;
    }
    long senders = newView.viewChanges().stream().map(ViewChange::sender).distinct().count();
    if (senders < quorums.quorum()) {
      return Optional.of(
          "bad new view: " + senders + " view changes but a quorum is " + quorums.quorum());
    }
    List<PreparedCertificate> expected =
        NewViewComputation.compute(newView.viewChanges(), config.window()).prefix();
    return reproposalReason(newView, expected);
  }

  private Optional<String> reproposalReason(NewView newView, List<PreparedCertificate> expected) {
    List<PrePrepare> actual = newView.reproposals();
    if (actual.size() != expected.size()) {
      return Optional.of(
          "bad new view: re-proposes "
              + actual.size()
              + " sequences but the view changes prove "
              + expected.size());
    }
    for (int i = 0; i < actual.size(); i++) {
      PrePrepare prePrepare = actual.get(i);
      PrePrepare certified = expected.get(i).prePrepare();
      if (prePrepare.view() != newView.view()
          || prePrepare.sequence() != certified.sequence()
          || !prePrepare.digest().equals(certified.digest())) {
        return Optional.of(
            "bad new view: re-proposal at "
                + prePrepare.sequence()
                + " differs from the prepared certificate at "
                + certified.sequence());
      }
      Optional<String> reason = validator.prePrepareReason(prePrepare);
      if (reason.isPresent()) {
        return Optional.of("bad new view: " + reason.get());
      }
    }
    return Optional.empty();
  }
}
