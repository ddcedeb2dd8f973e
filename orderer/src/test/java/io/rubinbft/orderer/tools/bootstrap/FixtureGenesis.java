package io.rubinbft.orderer.tools.bootstrap;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Config;
import org.hyperledger.fabric.protos.common.ConfigEnvelope;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.SignatureHeader;
import org.hyperledger.fabric.protos.orderer.BatchSize;
import org.hyperledger.fabric.protos.peer.AnchorPeer;

/**
 * The fixtures' genesis block and the inputs configtxgen made it from (configtx.yaml's BenchChannel
 * with the fixtures' cryptogen output), as our types.
 */
final class FixtureGenesis {

  private FixtureGenesis() {}

  static Block block() throws IOException {
    return Block.parseFrom(Files.readAllBytes(Fixtures.genesisBlock()));
  }

  static BftChannelProfile benchChannel() {
    Path orderers = Fixtures.crypto().resolve("ordererOrganizations/example.com");
    Path org1 = Fixtures.crypto().resolve("peerOrganizations/org1.example.com");
    List<String> endpoints =
        IntStream.range(0, 4).mapToObj(i -> "127.0.0.1:" + (7050 + i)).toList();
    List<ConsenterSpec> consenters =
        IntStream.rangeClosed(1, 4)
            .mapToObj(
                id -> {
                  Path node = orderers.resolve("orderers/orderer" + id + ".example.com");
                  Path tls = node.resolve("tls/server.crt");
                  Path identity =
                      node.resolve("msp/signcerts/orderer" + id + ".example.com-cert.pem");
                  return new ConsenterSpec(
                      id, "127.0.0.1", 7149 + id, "OrdererMSP", identity, tls, tls);
                })
            .toList();
    return new BftChannelProfile(
        List.of(
            Organization.orderer("OrdererOrg", "OrdererMSP", orderers.resolve("msp"), endpoints)),
        List.of(
            Organization.application(
                "Org1",
                "Org1MSP",
                org1.resolve("msp"),
                List.of(AnchorPeer.newBuilder().setHost("127.0.0.1").setPort(7451).build()))),
        consenters,
        BatchSize.newBuilder()
            .setMaxMessageCount(10)
            .setAbsoluteMaxBytes(10 * 1024 * 1024)
            .setPreferredMaxBytes(2 * 1024 * 1024)
            .build(),
        Duration.ofSeconds(2),
        SmartBftOptions.benchChannel());
  }

  static Envelope envelope(Block block) throws InvalidProtocolBufferException {
    return Envelope.parseFrom(block.getData().getData(0));
  }

  static Payload payload(Block block) throws InvalidProtocolBufferException {
    return Payload.parseFrom(envelope(block).getPayload());
  }

  static ChannelHeader channelHeader(Block block) throws InvalidProtocolBufferException {
    return ChannelHeader.parseFrom(payload(block).getHeader().getChannelHeader());
  }

  static SignatureHeader signatureHeader(Block block) throws InvalidProtocolBufferException {
    return SignatureHeader.parseFrom(payload(block).getHeader().getSignatureHeader());
  }

  static Config config(Block block) throws InvalidProtocolBufferException {
    return ConfigEnvelope.parseFrom(payload(block).getData()).getConfig();
  }
}
