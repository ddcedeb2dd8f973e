package io.rubinbft.orderer.consensus;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Effects;
import io.rubinbft.bft.Event;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.message.Message;
import io.rubinbft.bft.protocol.Replica;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.block.BlockSignatureVerifier;
import io.rubinbft.orderer.block.EnvelopeValidator;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.ConfigBlockReader;
import io.rubinbft.orderer.crypto.CryptoProvider;
import io.rubinbft.orderer.crypto.EcKeys;
import io.rubinbft.orderer.crypto.EcdsaSigner;
import io.rubinbft.orderer.crypto.EcdsaVerifier;
import io.rubinbft.orderer.identity.EnvelopeFactory;
import io.rubinbft.orderer.identity.SigningIdentity;
import io.rubinbft.orderer.testing.FabricFixtures;
import io.rubinbft.orderer.validation.BroadcastResult;
import io.rubinbft.orderer.validation.BroadcastValidator;
import io.rubinbft.orderer.validation.ChannelRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.Test;

/**
 * Four bft-core replicas run the Fabric application with the fixture network's real consenter keys
 * and genesis config, in one thread over a lossless in-memory network: the decided blocks must
 * chain from Fabric's genesis block and carry a quorum of consenter signatures in Fabric v3's BFT
 * form, exactly what a Fabric peer verifies.
 */
class FabricConsensusTest {

  private static final CryptoProvider PROVIDER = CryptoProvider.preferNative();
  private static final Duration TICK = Duration.ofMillis(10);
  private static final int NODES = 4;

  private record Delivery(int from, int to, Message message) {}

  private final Queue<Delivery> network = new ArrayDeque<>();
  private final List<List<Block>> blocks = new ArrayList<>();

  @Test
  void fourReplicasOrderSignedFabricBlocksAfterTheGenesisBlock() throws Exception {
    Block genesis =
        Block.parseFrom(Files.readAllBytes(FabricFixtures.root().resolve("bft-genesis.block")));
    ChannelConfig channel = ConfigBlockReader.read(genesis);
    List<Replica> replicas = startReplicas(channel, genesis);
    EnvelopeFactory client = new EnvelopeFactory(user1(), Clock.systemUTC());

    Set<String> submitted = new HashSet<>();
    for (int i = 0; i < 25; i++) {
      EnvelopeFactory.SignedEnvelope tx = client.transaction("fixture", new byte[200]);
      submitted.add(tx.txId());
      Request request = new Request(new RequestId("tx", tx.txId()), tx.envelope().toByteArray());
      for (int r = 0; r < NODES; r++) {
        apply(r, replicas.get(r).step(new Event.ClientRequest(request)));
      }
    }
    for (int tick = 0; tick < 2_000 && orderedTxCount(0) < 25; tick++) {
      for (int r = 0; r < NODES; r++) {
        apply(r, replicas.get(r).step(new Event.Tick()));
      }
      drain(replicas);
    }

    BlockSignatureVerifier signatures =
        new BlockSignatureVerifier(
            channel.consenters(), new EcKeys(PROVIDER), new EcdsaVerifier(PROVIDER));
    for (int r = 0; r < NODES; r++) {
      assertThat(orderedTxCount(r)).as("transactions ordered by replica %d", r).isEqualTo(25);
      Block previous = genesis;
      for (Block block : blocks.get(r)) {
        assertThat(block.getHeader().getNumber()).isEqualTo(previous.getHeader().getNumber() + 1);
        assertThat(block.getHeader().getPreviousHash().toByteArray())
            .isEqualTo(BlockHashing.headerHash(previous.getHeader()));
        assertThat(signatures.check(block.getHeader(), block.getMetadata()).invalidReason())
            .isEmpty();
        previous = block;
      }
      assertThat(blocks.get(r).stream().map(Block::getHeader).toList())
          .isEqualTo(blocks.get(0).stream().map(Block::getHeader).toList());
    }
  }

  private List<Replica> startReplicas(ChannelConfig channel, Block genesis) throws Exception {
    ChannelRules rules =
        ChannelRules.fromConfig(
            channel.config(), PROVIDER, channel.batchLimits().absoluteMaxBytes(), 1024);
    BroadcastValidator validator =
        new BroadcastValidator(id -> Optional.of(rules), Clock.systemUTC());
    EnvelopeValidator envelopes =
        envelope -> {
          try {
            return validator.validate(
                        org.hyperledger.fabric.protos.common.Envelope.parseFrom(envelope))
                    instanceof BroadcastResult.Rejected rejected
                ? Optional.of(rejected.verdict().info())
                : Optional.empty();
          } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            return Optional.of("not an envelope");
          }
        };
    List<Replica> replicas = new ArrayList<>();
    for (int r = 0; r < NODES; r++) {
      long consenterId = channel.consenters().consenters().get(r).id();
      replicas.add(
          Replica.start(
              ChannelReplicas.replicaConfig(channel, r, TICK),
              ChannelReplicas.services(
                  channel,
                  genesis.getHeader(),
                  0,
                  consenterId,
                  enrollmentKey(consenterId),
                  envelopes,
                  PROVIDER)));
      blocks.add(new ArrayList<>());
    }
    return replicas;
  }

  /** Sends what the replica emitted (a lossless network delivers it later) and records blocks. */
  private void apply(int replica, Effects effects) {
    List<Outbound> messages = new ArrayList<>(effects.sendNow());
    messages.addAll(effects.sendAfterPersist());
    for (Outbound out : messages) {
      if (out.to().isPresent()) {
        network.add(new Delivery(replica, out.to().getAsInt(), out.message()));
      } else {
        for (int to = 0; to < NODES; to++) {
          if (to != replica) {
            network.add(new Delivery(replica, to, out.message()));
          }
        }
      }
    }
    for (Decision decision : effects.decisions()) {
      blocks.get(replica).add(ProposalBlocks.signedBlock(decision));
    }
  }

  private void drain(List<Replica> replicas) {
    for (Delivery d = network.poll(); d != null; d = network.poll()) {
      apply(d.to(), replicas.get(d.to()).step(new Event.Received(d.from(), d.message())));
    }
  }

  private int orderedTxCount(int replica) {
    return blocks.get(replica).stream().mapToInt(b -> b.getData().getDataCount()).sum();
  }

  private static EcdsaSigner enrollmentKey(long consenterId) throws Exception {
    Path key = FabricFixtures.orderer((int) consenterId).resolve("msp/keystore/priv_sk");
    return new EcdsaSigner(PROVIDER, new EcKeys(PROVIDER).privateKeyFromPem(Files.readString(key)));
  }

  private static SigningIdentity user1() {
    return SigningIdentity.fromMspDirectory(
        FabricFixtures.root()
            .resolve("crypto/peerOrganizations/org1.example.com/users/User1@org1.example.com/msp"),
        "Org1MSP",
        PROVIDER);
  }
}
