package io.rubinbft.orderer.node.lifecycle;

import java.util.List;

/** A channel's next state and what the lifecycle thread does to get there, in order. */
public record Transition(ChannelState state, List<ChannelAction> actions) {

  public Transition {
    actions = List.copyOf(actions);
  }

  /** To {@code state}, doing {@code actions}. */
  public static Transition to(ChannelState state, ChannelAction... actions) {
    return new Transition(state, List.of(actions));
  }

  /** Nothing changes, nothing is done: the event does not concern this state. */
  public static Transition ignore(ChannelState state) {
    return new Transition(state, List.of());
  }

  /** Nothing changes; the request is answered {@code refusal}. */
  public static Transition refuse(ChannelState state, ChannelAction.Refuse refusal) {
    return new Transition(state, List.of(refusal));
  }
}
