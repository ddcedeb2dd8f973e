package io.rubinbft.orderer.validation;

import io.rubinbft.orderer.msp.Identity;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.ChannelHeader;

/** Outcome of validating one Broadcast envelope. */
public sealed interface BroadcastResult {

  Verdict verdict();

  /**
   * The envelope may be ordered: its signature, verified here once, satisfies /Channel/Writers. The
   * creator is absent only where /Channel/Writers needs no signer at all (a config with no org
   * groups).
   */
  record Accepted(ChannelHeader channelHeader, Optional<Identity> creator)
      implements BroadcastResult {
    @Override
    public Verdict verdict() {
      return Verdict.success();
    }
  }

  /** Answer {@code verdict} and end the stream, as Fabric does after any non-SUCCESS. */
  record Rejected(Verdict verdict) implements BroadcastResult {}
}
