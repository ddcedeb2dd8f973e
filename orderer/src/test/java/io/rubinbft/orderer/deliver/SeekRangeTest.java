package io.rubinbft.orderer.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.orderer.testing.FabricFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;
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
    assertThat(resolve(oldest(), newest())).contains(new SeekRange(0, 9, false));
    assertThat(resolve(newest(), newest())).contains(new SeekRange(9, 9, false));
    assertThat(resolve(specified(3), specified(5))).contains(new SeekRange(3, 5, false));
    assertThat(resolve(nextCommit(), specified(12))).contains(new SeekRange(10, 12, false));
    assertThat(resolve(specified(4), oldest())).contains(new SeekRange(4, 4, false));
    assertThat(resolve(specified(2), nextCommit())).contains(new SeekRange(2, -1L, false));
  }

  @Test
  void peersStreamForeverWithAnUnsignedMaximumStop() {
    Optional<SeekRange> range = resolve(specified(1), specified(-1L));
    assertThat(range).contains(new SeekRange(1, -1L, false));
    assertThat(range.orElseThrow().endsAt(1_000_000)).isFalse();
  }

  @Test
  void malformedRequestsAreRejected() {
    assertThat(resolve(specified(5), specified(4))).isEmpty();
    assertThat(SeekRange.resolve(SeekInfo.newBuilder().setStart(oldest()).build(), HEIGHT))
        .isEmpty();
    assertThat(
            SeekRange.resolve(
                SeekInfo.newBuilder()
                    .setStart(SeekPosition.getDefaultInstance())
                    .setStop(oldest())
                    .build(),
                HEIGHT))
        .isEmpty();
  }

  @Test
  void theFixturePeersSeeksResolve() throws IOException {
    SeekInfo peerCli = seekOf("deliver-seek-peer-cli.envelope");
    assertThat(SeekRange.resolve(peerCli, HEIGHT)).contains(new SeekRange(1, 1, false));

    SeekInfo peerNode = seekOf("deliver-seek-peer-node-blocks.envelope");
    assertThat(SeekRange.resolve(peerNode, HEIGHT)).contains(new SeekRange(1, -1L, false));

    SeekInfo beyond = seekOf("deliver-seek-beyond-height-fail-if-not-ready.envelope");
    assertThat(SeekRange.resolve(beyond, HEIGHT)).contains(new SeekRange(1000, 1000, true));
  }

  private static SeekInfo seekOf(String file) throws IOException {
    Envelope envelope =
        Envelope.parseFrom(Files.readAllBytes(FabricFixtures.root().resolve("envelopes/" + file)));
    return SeekInfo.parseFrom(Payload.parseFrom(envelope.getPayload()).getData());
  }

  private static Optional<SeekRange> resolve(SeekPosition start, SeekPosition stop) {
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
