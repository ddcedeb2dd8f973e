package io.rubinbft.orderer.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.nio.file.Files;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
import org.hyperledger.fabric.protos.common.Status;
import org.hyperledger.fabric.protos.orderer.SeekInfo;
import org.hyperledger.fabric.protos.orderer.SeekInfo.SeekBehavior;
import org.hyperledger.fabric.protos.orderer.SeekNewest;
import org.hyperledger.fabric.protos.orderer.SeekNextCommit;
import org.hyperledger.fabric.protos.orderer.SeekOldest;
import org.hyperledger.fabric.protos.orderer.SeekPosition;
import org.hyperledger.fabric.protos.orderer.SeekSpecified;
import org.junit.jupiter.api.Test;

class SeekRangeTest {

  private static final long HEIGHT = 10;

  @Test
  void positionsResolveAsInFabric() {
    assertThat(resolve(oldest(), newest())).isEqualTo(blocks(0, 9, false));
    assertThat(resolve(newest(), newest())).isEqualTo(blocks(9, 9, false));
    assertThat(resolve(specified(3), specified(5))).isEqualTo(blocks(3, 5, false));
    assertThat(resolve(nextCommit(), specified(12))).isEqualTo(blocks(10, 12, false));
    assertThat(resolve(specified(4), oldest())).isEqualTo(blocks(4, 4, false));
    assertThat(resolve(specified(10), specified(10))).isEqualTo(blocks(10, 10, false));
  }

  @Test
  void aNextCommitStopIsBlockZeroAsInFabric() {
    SeekRange range = ((SeekResolution.Blocks) resolve(oldest(), nextCommit())).range();
    assertThat(range).isEqualTo(new SeekRange(0, 0, false));
    assertThat(range.endsAt(0)).isTrue();
    SeekRange later = ((SeekResolution.Blocks) resolve(specified(2), nextCommit())).range();
    assertThat(later.endsAt(2)).isFalse();
    assertThat(later.endsAt(1_000_000)).isFalse();
  }

  @Test
  void aStartBeyondTheHeightIsNotFoundWhateverTheBehavior() {
    assertThat(resolve(specified(11), specified(11))).isEqualTo(refused(Status.NOT_FOUND));
    assertThat(resolve(specified(-1L), specified(-1L))).isEqualTo(refused(Status.NOT_FOUND));
    // The file ledger's iterator is looked up before the stop is compared with the start.
    assertThat(resolve(specified(20), specified(12))).isEqualTo(refused(Status.NOT_FOUND));
    SeekInfo failing =
        SeekInfo.newBuilder()
            .setStart(specified(11))
            .setStop(specified(11))
            .setBehavior(SeekBehavior.FAIL_IF_NOT_READY)
            .build();
    assertThat(SeekRange.resolve(failing, HEIGHT)).isEqualTo(refused(Status.NOT_FOUND));
  }

  @Test
  void peersStreamForeverWithAnUnsignedMaximumStop() {
    SeekResolution range = resolve(specified(1), specified(-1L));
    assertThat(range).isEqualTo(blocks(1, -1L, false));
    assertThat(((SeekResolution.Blocks) range).range().endsAt(1_000_000)).isFalse();
  }

  @Test
  void malformedRequestsAreRejected() {
    assertThat(resolve(specified(5), specified(4))).isEqualTo(refused(Status.BAD_REQUEST));
    assertThat(SeekRange.resolve(SeekInfo.newBuilder().setStart(oldest()).build(), HEIGHT))
        .isEqualTo(refused(Status.BAD_REQUEST));
    // A start of no known type: Fabric's file ledger has no iterator for it.
    assertThat(
            SeekRange.resolve(
                SeekInfo.newBuilder()
                    .setStart(SeekPosition.getDefaultInstance())
                    .setStop(oldest())
                    .build(),
                HEIGHT))
        .isEqualTo(refused(Status.NOT_FOUND));
  }

  @Test
  void theFixturePeersSeeksResolve() throws IOException {
    SeekInfo peerCli = seekOf("deliver-seek-peer-cli.envelope");
    assertThat(SeekRange.resolve(peerCli, HEIGHT)).isEqualTo(blocks(1, 1, false));

    SeekInfo peerNode = seekOf("deliver-seek-peer-node-blocks.envelope");
    assertThat(SeekRange.resolve(peerNode, HEIGHT)).isEqualTo(blocks(1, -1L, false));

    SeekInfo beyond = seekOf("deliver-seek-beyond-height-fail-if-not-ready.envelope");
    assertThat(SeekRange.resolve(beyond, HEIGHT)).isEqualTo(refused(Status.NOT_FOUND));
  }

  private static SeekInfo seekOf(String file) throws IOException {
    Envelope envelope =
        Envelope.parseFrom(Files.readAllBytes(FabricFixtures.root().resolve("envelopes/" + file)));
    return SeekInfo.parseFrom(Payload.parseFrom(envelope.getPayload()).getData());
  }

  private static SeekResolution blocks(long start, long stop, boolean failIfNotReady) {
    return new SeekResolution.Blocks(new SeekRange(start, stop, failIfNotReady));
  }

  private static SeekResolution refused(Status status) {
    return new SeekResolution.Refused(status);
  }

  private static SeekResolution resolve(SeekPosition start, SeekPosition stop) {
    return SeekRange.resolve(
        SeekInfo.newBuilder()
            .setStart(start)
            .setStop(stop)
            .setBehavior(SeekBehavior.BLOCK_UNTIL_READY)
            .build(),
        HEIGHT);
  }

  private static SeekPosition oldest() {
    return SeekPosition.newBuilder().setOldest(SeekOldest.getDefaultInstance()).build();
  }

  private static SeekPosition newest() {
    return SeekPosition.newBuilder().setNewest(SeekNewest.getDefaultInstance()).build();
  }

  private static SeekPosition nextCommit() {
    return SeekPosition.newBuilder().setNextCommit(SeekNextCommit.getDefaultInstance()).build();
  }

  private static SeekPosition specified(long number) {
    return SeekPosition.newBuilder()
        .setSpecified(SeekSpecified.newBuilder().setNumber(number))
        .build();
  }
}
