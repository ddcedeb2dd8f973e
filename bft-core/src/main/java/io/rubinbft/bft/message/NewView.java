package io.rubinbft.bft.message;

import java.util.List;

/**
 * The new primary's proof that a quorum asked for {@code view}, and the prepared prefix it
 * re-proposes (one signed pre-prepare per sequence, computed from the view changes).
 */
public record NewView(
    long view,
    List<ViewChange> viewChanges,
    List<PrePrepare> reproposals,
    int sender,
    byte[] signature)
    implements Message {

  public NewView {
    viewChanges = List.copyOf(viewChanges);
    reproposals = List.copyOf(reproposals);
  }
}
