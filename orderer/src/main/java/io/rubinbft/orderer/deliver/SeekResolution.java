package io.rubinbft.orderer.deliver;

import org.hyperledger.fabric.protos.common.Status;

/** What a seek request resolves to against the ledger height: blocks to send, or an answer. */
public sealed interface SeekResolution {

  /** Blocks to send, from the range's start on. */
  record Blocks(SeekRange range) implements SeekResolution {}

  /** The status that answers the request at once, with no block. */
  record Refused(Status status) implements SeekResolution {}
}
