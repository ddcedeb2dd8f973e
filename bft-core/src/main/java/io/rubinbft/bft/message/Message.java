package io.rubinbft.bft.message;

/** A message between replicas. */
public sealed interface Message
    permits PrePrepare,
        Prepare,
        Commit,
        Checkpoint,
        ViewChange,
        NewView,
        Status,
        FetchDecisions,
        Decisions,
        FetchProposal,
        ProposalBody,
        Complaint {

  /** The replica that sent it; must equal the sender the transport authenticated. */
  int sender();
}
