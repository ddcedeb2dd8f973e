package io.rubinbft.ledger;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;

/** The naive model of one channel the property test compares the store against. */
final class ReferenceLedger {

  final List<byte[]> blocks = new ArrayList<>();
  final Map<String, TxLocation> firstOccurrence = new HashMap<>();
  final List<ByteString> envelopes = new ArrayList<>();

  void append(byte[] bytes) throws InvalidProtocolBufferException {
    Block block = Block.parseFrom(bytes);
    long number = blocks.size();
    List<ByteString> data = block.getData().getDataList();
    for (int i = 0; i < data.size(); i++) {
      Payload payload = Payload.parseFrom(Envelope.parseFrom(data.get(i)).getPayload());
      String txId = ChannelHeader.parseFrom(payload.getHeader().getChannelHeader()).getTxId();
      firstOccurrence.putIfAbsent(txId, new TxLocation(number, i));
      envelopes.add(data.get(i));
    }
    blocks.add(bytes);
  }

  Block last() throws InvalidProtocolBufferException {
    return Block.parseFrom(blocks.getLast());
  }
}
