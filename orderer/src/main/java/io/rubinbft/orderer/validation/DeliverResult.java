package io.rubinbft.orderer.validation;

import io.rubinbft.orderer.msp.Identity;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.orderer.SeekInfo;

/** Outcome of validating one Deliver request. */
public sealed interface DeliverResult {

  Verdict verdict();

  /**
   * The client may read the channel from {@code seekInfo}; positions against the ledger height
   * (NOT_FOUND with FAIL_IF_NOT_READY) are for the Deliver service. A long stream must stop when
   * the client's identity expires ({@link Identity#notAfter()}) and re-check /Channel/Readers when
   * the config changes, as Fabric's session access control does.
   */
  record Accepted(ChannelHeader channelHeader, SeekInfo seekInfo, Optional<Identity> client)
      implements DeliverResult {
    @Override
    public Verdict verdict() {
      return Verdict.success();
    }
  }

  /** Answer {@code DeliverResponse{status}} with no blocks and end the stream. */
  record Rejected(Verdict verdict) implements DeliverResult {}
}
