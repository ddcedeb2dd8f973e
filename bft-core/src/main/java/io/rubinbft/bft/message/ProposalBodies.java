package io.rubinbft.bft.message;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Digest;
import io.rubinbft.bft.Proposal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * View changes and new views carry their proposals by digest (WIRE.md "Bodies by digest"): on the
 * wire every proposal inside them is {@link Proposal#hollow}, so such a message is bounded by n x
 * window digests, not n x window proposals. These functions take the bodies out ({@link #hollowed})
 * and put them back from a lookup by sequence and digest ({@link #filled}); a body is put back only
 * under the digest it hashes to, which the lookup guarantees and the validator checks again.
 */
public final class ProposalBodies {

  /** Finds a proposal body by sequence and digest; null when unknown. */
  @FunctionalInterface
  public interface Lookup {
    @Nullable Proposal body(long sequence, Digest digest);
  }

  private ProposalBodies() {}

  /** The message as it travels: a view change's or new view's proposals hollow, others as is. */
  public static Message hollowed(Message message) {
    return switch (message) {
      case ViewChange viewChange -> hollowed(viewChange);
      case NewView newView -> hollowed(newView);
      default -> message;
    };
  }

  public static ViewChange hollowed(ViewChange viewChange) {
    return filled(viewChange, (sequence, digest) -> null, true);
  }

  public static NewView hollowed(NewView newView) {
    return filled(newView, (sequence, digest) -> null, true);
  }

  /** The view change with every hollow proposal {@code lookup} knows replaced by its body. */
  public static ViewChange filled(ViewChange viewChange, Lookup lookup) {
    return filled(viewChange, lookup, false);
  }

  /** The new view with every hollow proposal {@code lookup} knows replaced by its body. */
  public static NewView filled(NewView newView, Lookup lookup) {
    return filled(newView, lookup, false);
  }

  /** The (sequence, digest) of every proposal still hollow in a view change or new view. */
  public static Map<Digest, Long> missing(Message message) {
    Map<Digest, Long> missing = new LinkedHashMap<>();
    switch (message) {
      case ViewChange viewChange -> missing(viewChange, missing);
      case NewView newView -> {
        newView.viewChanges().forEach(viewChange -> missing(viewChange, missing));
        newView.reproposals().forEach(prePrepare -> missing(prePrepare, missing));
      }
      default -> {}
    }
    return missing;
  }

  private static void missing(ViewChange viewChange, Map<Digest, Long> missing) {
    Decision decision = viewChange.lastDecision();
    if (decision != null && decision.proposal() != null && decision.proposal().isHollow()) {
      missing.put(decision.digest(), decision.sequence());
    }
    viewChange.prepared().forEach(certificate -> missing(certificate.prePrepare(), missing));
  }

  private static void missing(PrePrepare prePrepare, Map<Digest, Long> missing) {
    if (prePrepare != null && prePrepare.proposal() != null && prePrepare.proposal().isHollow()) {
      missing.put(prePrepare.digest(), prePrepare.sequence());
    }
  }

  private static NewView filled(NewView newView, Lookup lookup, boolean hollow) {
    List<ViewChange> viewChanges = new ArrayList<>(newView.viewChanges().size());
    for (ViewChange viewChange : newView.viewChanges()) {
      viewChanges.add(filled(viewChange, lookup, hollow));
    }
    List<PrePrepare> reproposals = new ArrayList<>(newView.reproposals().size());
    for (PrePrepare prePrepare : newView.reproposals()) {
      reproposals.add(filled(prePrepare, lookup, hollow));
    }
    return new NewView(
        newView.view(), viewChanges, reproposals, newView.sender(), newView.signature());
  }

  private static ViewChange filled(ViewChange viewChange, Lookup lookup, boolean hollow) {
    Decision decision = viewChange.lastDecision();
    if (decision != null && decision.proposal() != null) {
      Proposal proposal = body(decision.proposal(), decision.digest(), lookup, hollow);
      if (proposal != decision.proposal()) {
        decision =
            new Decision(proposal, decision.digest(), decision.view(), decision.certificate());
      }
    }
    List<PreparedCertificate> prepared = new ArrayList<>(viewChange.prepared().size());
    for (PreparedCertificate certificate : viewChange.prepared()) {
      PrePrepare prePrepare = filled(certificate.prePrepare(), lookup, hollow);
      prepared.add(
          prePrepare == certificate.prePrepare()
              ? certificate
              : new PreparedCertificate(prePrepare, certificate.prepares()));
    }
    return new ViewChange(
        viewChange.newView(),
        viewChange.stableSequence(),
        viewChange.stableDigest(),
        viewChange.stableProof(),
        decision,
        prepared,
        viewChange.sender(),
        viewChange.signature());
  }

  private static PrePrepare filled(PrePrepare prePrepare, Lookup lookup, boolean hollow) {
    if (prePrepare == null || prePrepare.proposal() == null) {
      return prePrepare;
    }
    Proposal proposal = body(prePrepare.proposal(), prePrepare.digest(), lookup, hollow);
    return proposal == prePrepare.proposal()
        ? prePrepare
        : new PrePrepare(
            prePrepare.view(),
            prePrepare.sequence(),
            prePrepare.digest(),
            proposal,
            prePrepare.sender(),
            prePrepare.signature());
  }

  private static Proposal body(Proposal proposal, Digest digest, Lookup lookup, boolean hollow) {
    if (hollow) {
      return proposal.isHollow()
          ? proposal
          : Proposal.hollow(proposal.sequence(), proposal.previous());
    }
    if (!proposal.isHollow()) {
      return proposal;
    }
    Proposal body = lookup.body(proposal.sequence(), digest);
    return body == null ? proposal : body;
  }
}
