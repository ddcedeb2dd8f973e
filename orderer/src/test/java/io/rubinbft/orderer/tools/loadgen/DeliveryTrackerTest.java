package io.rubinbft.orderer.tools.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.BlockData;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.junit.jupiter.api.Test;

/** The tracker follows Fabric's own blocks 1..9 from the fixtures. */
class DeliveryTrackerTest {

  private static final long SENT_AT = 1_000_000_000L;

  @Test
  void matchesSubmittedTransactionsAndMeasuresLatency() throws IOException {
    DeliveryTracker tracker = new DeliveryTracker(block -> Optional.empty());
    List<String> ours = txIds(block(1));
    ours.forEach(txId -> tracker.submitted(txId, SENT_AT));

    for (int n = 1; n <= 9; n++) {
      tracker.onBlock(block(n), SENT_AT + n * 1_000_000L);
    }

    DeliveryStats stats = tracker.stats();
    assertThat(stats.blocks()).isEqualTo(9);
    assertThat(stats.delivered()).isEqualTo(10);
    assertThat(stats.foreign()).as("blocks 1..9 hold 60 transactions").isEqualTo(60 - 10);
    assertThat(stats.duplicates()).isZero();
    assertThat(stats.problem()).isEmpty();
    assertThat(stats.latencyMicros().getMaxValue()).isBetween(999L, 1001L);
  }

  @Test
  void countsAsLostExactlyTheAcceptedTransactionsNotDelivered() throws IOException {
    DeliveryTracker tracker = new DeliveryTracker(block -> Optional.empty());
    List<String> inBlockOne = txIds(block(1));
    List<String> inBlockTwo = txIds(block(2));
    inBlockOne.forEach(txId -> tracker.submitted(txId, SENT_AT));
    inBlockTwo.forEach(txId -> tracker.submitted(txId, SENT_AT));
    // Accepted: block 1's first half, which is delivered, and block 2's first transaction, which
    // is not; block 1's other transactions are delivered without having been accepted (a quorum
    // timed out), which must not hide the lost one.
    List<String> accepted = new ArrayList<>(inBlockOne.subList(0, inBlockOne.size() / 2));
    accepted.add(inBlockTwo.getFirst());
    accepted.subList(0, 2).forEach(tracker::accepted);

    tracker.onBlock(block(1), SENT_AT);
    accepted.subList(2, accepted.size()).forEach(tracker::accepted);

    assertThat(tracker.undelivered()).isEqualTo(1);
    DeliveryStats stats = tracker.stats();
    assertThat(stats.lost()).isEqualTo(1);
    assertThat(stats.acceptedTxIds()).containsExactlyInAnyOrderElementsOf(accepted);
    assertThat(stats.delivered()).isEqualTo(inBlockOne.size());
    assertThat(stats.deliveredUnaccepted()).isEqualTo(inBlockOne.size() - inBlockOne.size() / 2);
  }

  @Test
  void countsATransactionOrderedTwice() throws IOException {
    DeliveryTracker tracker = new DeliveryTracker(block -> Optional.empty());
    Block first = block(1);
    txIds(first).forEach(txId -> tracker.submitted(txId, SENT_AT));
    Block second = following(first, List.of(first.getData().getData(3)));

    tracker.onBlock(first, SENT_AT);
    tracker.onBlock(second, SENT_AT);

    assertThat(tracker.stats().duplicates()).isEqualTo(1);
    assertThat(tracker.stats().problem()).isEmpty();
  }

  @Test
  void reportsABrokenChainAWrongDataHashAndBadSignatures() throws IOException {
    DeliveryTracker gap = new DeliveryTracker(block -> Optional.empty());
    gap.onBlock(block(1), SENT_AT);
    gap.onBlock(block(3), SENT_AT);
    assertThat(gap.stats().problem()).contains("block 3 follows block 1");

    Block tampered = block(2).toBuilder().setData(block(3).getData()).build();
    DeliveryTracker data = new DeliveryTracker(block -> Optional.empty());
    data.onBlock(block(1), SENT_AT);
    data.onBlock(tampered, SENT_AT);
    assertThat(data.stats().problem()).contains("block 2's data hash does not match its data");

    DeliveryTracker signatures =
        new DeliveryTracker(
            block ->
                block.getHeader().getNumber() == 2
                    ? Optional.of("2 valid consenter signatures, 3 needed")
                    : Optional.empty());
    signatures.onBlock(block(1), SENT_AT);
    signatures.onBlock(block(2), SENT_AT);
    assertThat(signatures.stats().problem())
        .contains("block 2: 2 valid consenter signatures, 3 needed");
  }

  private static Block following(Block previous, List<ByteString> envelopes) {
    BlockData data = BlockData.newBuilder().addAllData(envelopes).build();
    return Block.newBuilder()
        .setHeader(
            previous.getHeader().toBuilder()
                .setNumber(previous.getHeader().getNumber() + 1)
                .setPreviousHash(ByteString.copyFrom(BlockHashing.headerHash(previous.getHeader())))
                .setDataHash(ByteString.copyFrom(BlockHashing.dataHash(data))))
        .setData(data)
        .build();
  }

  private static List<String> txIds(Block block) throws IOException {
    List<String> ids = new ArrayList<>();
    for (ByteString data : block.getData().getDataList()) {
      Payload payload = Payload.parseFrom(Envelope.parseFrom(data).getPayload());
      ids.add(ChannelHeader.parseFrom(payload.getHeader().getChannelHeader()).getTxId());
    }
    return ids;
  }

  private static Block block(int number) throws IOException {
    return Block.parseFrom(
        Files.readAllBytes(
            FabricFixtures.root().resolve(String.format("blocks/bft-%03d.block", number))));
  }
}
