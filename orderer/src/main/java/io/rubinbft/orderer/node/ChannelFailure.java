package io.rubinbft.orderer.node;

/**
 * Why this node stopped serving a channel for good, and which {@code /healthz} check reports it.
 * The participation API reports every channel with such a failure as "failed"; {@link NodeHealth}
 * fails the named check for it. Both read it from {@link ChannelEntry#failure}, so they cannot
 * disagree.
 */
record ChannelFailure(Check check, String reason) {

  /** The {@code /healthz} check that reports a failure. */
  enum Check {
    /** The channel's ledger writer stopped: decided blocks no longer reach its ledger. */
    LEDGER("ledger"),
    /** The channel's replica stopped. */
    CONSENSUS("consensus"),
    /**
     * The node stopped following, onboarding or serving the channel (a follower's pulling or an
     * onboarding stopped, a switch between consenter and follower failed).
     */
    CHANNELS("channels");

    private final String component;

    Check(String component) {
      this.component = component;
    }

    /** The check's name in {@code /healthz}'s {@code failed_checks}. */
    String component() {
      return component;
    }
  }
}
