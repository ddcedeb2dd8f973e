package io.rubinbft.orderer.consensus;

import io.rubinbft.bft.Handover;
import io.rubinbft.bft.RequestId;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.orderer.crypto.Sha256;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.hyperledger.fabric.protos.common.Block;

/**
 * What a replica restarted inside a later epoch knows of the requests ordered before it: the ids of
 * the envelopes in the newest blocks of its ledger (its epoch's WAL holds only the epoch's own
 * records), so a transaction resent by a client after the restart is still refused as a duplicate.
 */
public final class LedgerHandover {

  private LedgerHandover() {}

  /** The ids of up to {@code maxIds} of the newest envelopes in the ledger, oldest first. */
  public static Handover recent(ChannelLedger ledger, int maxIds, Sha256 sha256) {
    List<RequestId> newestFirst = new ArrayList<>();
    for (long number = ledger.height() - 1; number > 0 && newestFirst.size() < maxIds; number--) {
      Block block = ledger.block(number).orElseThrow().block();
      for (int i = block.getData().getDataCount() - 1; i >= 0; i--) {
        if (newestFirst.size() < maxIds) {
          newestFirst.add(
              FabricRequests.ofOrdered(block.getData().getData(i).toByteArray(), sha256).id());
        }
      }
    }
    Collections.reverse(newestFirst);
    return new Handover(List.of(), newestFirst);
  }
}
