package io.rubinbft.orderer.channel;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.rubinbft.ledger.BlockHashing;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigValue;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;

/** bft-genesis.block with one thing changed in its config, for the rejection tests. */
final class GenesisVariants {

  private GenesisVariants() {}

  static Block withConfig(Consumer<Config.Builder> change) {
    return withEnvelope(
        envelope -> {
          Payload payload = parse(envelope.getPayload(), Payload.parser());
          ConfigEnvelope configEnvelope = parse(payload.getData(), ConfigEnvelope.parser());
          Config.Builder config = configEnvelope.getConfig().toBuilder();
          change.accept(config);
          ConfigEnvelope changed = configEnvelope.toBuilder().setConfig(config).build();
          return envelope.toBuilder()
              .setPayload(
                  payload.toBuilder().setData(changed.toByteString()).build().toByteString())
              .build();
        });
  }

  /** Genesis with its envelope changed, and the header's data hash made to match again. */
  static Block withEnvelope(UnaryOperator<Envelope> change) {
    Block genesis = Fixtures.block(0);
    Envelope envelope = parse(genesis.getData().getData(0), Envelope.parser());
    BlockData data =
        genesis.getData().toBuilder().setData(0, change.apply(envelope).toByteString()).build();
    return genesis.toBuilder()
        .setData(data)
        .setHeader(
            genesis.getHeader().toBuilder()
                .setDataHash(ByteString.copyFrom(BlockHashing.dataHash(data))))
        .build();
  }

  /** Replaces value {@code key} of the Orderer group. */
  static Block withOrdererValue(String key, Message value) {
    return withConfig(
        config -> {
          ConfigGroup.Builder orderer = ordererGroup(config);
          orderer.putValues(
              key,
              orderer.getValuesMap().get(key).toBuilder().setValue(value.toByteString()).build());
          putOrderer(config, orderer);
        });
  }

  static ConfigGroup.Builder ordererGroup(Config.Builder config) {
    return config.getChannelGroup().getGroupsMap().get("Orderer").toBuilder();
  }

  static void putOrderer(Config.Builder config, ConfigGroup.Builder orderer) {
    config.setChannelGroup(
        config.getChannelGroup().toBuilder().putGroups("Orderer", orderer.build()));
  }

  static void putChannelValue(Config.Builder config, String key, Message value) {
    config.setChannelGroup(
        config.getChannelGroup().toBuilder()
            .putValues(key, ConfigValue.newBuilder().setValue(value.toByteString()).build()));
  }

  static <T> T parse(ByteString bytes, com.google.protobuf.Parser<T> parser) {
    try {
      return parser.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("fixture does not parse", e);
    }
  }
}
