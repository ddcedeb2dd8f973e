package io.rubinbft.bft.message;

import io.rubinbft.bft.Decision;
import java.util.List;

/** State transfer answer: consecutive decisions with their commit certificates. */
public record Decisions(List<Decision> decisions, int sender) implements Message {

  public Decisions {
    decisions = List.copyOf(decisions);
  }
}
