package io.rubinbft.orderer.consensus;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.orderer.block.EnvelopeViews;
import io.rubinbft.orderer.crypto.Sha256;
import java.util.HexFormat;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.HeaderType;
import org.hyperledger.fabric.protos.common.Payload;

/**
 * The bft-core request an envelope is ordered as. Its id is part of what the replicas sign (the
 * proposal digest covers request ids), so the Broadcast path and the rebuilding of decisions from
 * the ledger ({@link LedgerDecisionArchive}) must derive it the same way: the tx id, or for
 * envelopes without one (other header types) their hash, so two different ones are never taken for
 * duplicates.
 */
public final class FabricRequests {

  private static final String CLIENT = "tx";

  private FabricRequests() {}

  /** The request key of an envelope whose channel header carries {@code txId} (maybe empty). */
  public static String key(String txId, byte[] envelope, Sha256 sha256) {
    return txId.isEmpty() ? "sha256:" + HexFormat.of().formatHex(sha256.hash(envelope)) : txId;
  }

  /**
   * The request key of the CONFIG envelope made from config update {@code update}: the update's
   * hash, so the same update sent to every orderer is ordered once, whichever node's CONFIG
   * envelope wins.
   */
  public static String configKey(byte[] update, Sha256 sha256) {
    return "config-update:" + HexFormat.of().formatHex(sha256.hash(update));
  }

  /** The request for {@code envelope} under {@code key} (see {@link #key}). */
  public static Request request(String key, byte[] envelope) {
    return new Request(new RequestId(CLIENT, key), envelope);
  }

  /**
   * The request an envelope of a decided block was ordered as, and the one an envelope another
   * consenter forwarded is offered as.
   *
   * @throws IllegalStateException when it is not an envelope with a channel header, which cannot
   *     happen for an envelope that passed a backup's check
   */
  public static Request ofOrdered(byte[] envelope, Sha256 sha256) {
    try {
      Payload payload =
          EnvelopeViews.payload(
              EnvelopeViews.envelope(UnsafeByteOperations.unsafeWrap(envelope)).getPayload());
      ChannelHeader header = ChannelHeader.parseFrom(payload.getHeader().getChannelHeader());
      if (header.getType() == HeaderType.CONFIG_VALUE) {
        byte[] update = ConfigEnvelope.parseFrom(payload.getData()).getLastUpdate().toByteArray();
        return request(configKey(update, sha256), envelope);
      }
      return request(key(header.getTxId(), envelope, sha256), envelope);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a checked envelope does not decode", e);
    }
  }
}
