package io.rubinbft.ledger;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;

/**
 * The transaction ids of a block's envelopes, read from each envelope's channel header.
 *
 * <p>An envelope whose channel header does not parse, or whose tx id is empty or longer than {@link
 * KeyLayout#MAX_TX_ID_BYTES}, is stored but not indexed: Fabric peers accept blocks with such
 * envelopes (and mark the transaction invalid), so the ledger must store them too.
 */
final class TxIds {

  /** One indexed envelope: its tx id (UTF-8) and its position in the block's data. */
  record Entry(byte[] txId, int envelopeIndex) {}

  private TxIds() {}

  static List<Entry> of(Block block) {
    List<ByteString> envelopes = block.getData().getDataList();
    List<Entry> entries = new ArrayList<>(envelopes.size());
    for (int i = 0; i < envelopes.size(); i++) {
      int index = i;
      txId(envelopes.get(i))
          .map(id -> id.getBytes(StandardCharsets.UTF_8))
          .filter(id -> id.length > 0 && id.length <= KeyLayout.MAX_TX_ID_BYTES)
          .ifPresent(id -> entries.add(new Entry(id, index)));
    }
    return entries;
  }

  private static Optional<String> txId(ByteString envelopeBytes) {
    try {
      Envelope envelope = Envelope.parseFrom(envelopeBytes);
      Payload payload = Payload.parseFrom(envelope.getPayload());
      return Optional.of(ChannelHeader.parseFrom(payload.getHeader().getChannelHeader()).getTxId());
    } catch (InvalidProtocolBufferException e) {
      return Optional.empty();
    }
  }
}
