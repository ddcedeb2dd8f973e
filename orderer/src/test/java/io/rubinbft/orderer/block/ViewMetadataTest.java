package io.rubinbft.orderer.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ViewMetadataTest {

  @Test
  void encodesLikeFabricsBlocks() throws InvalidProtocolBufferException {
    for (int n = 1; n < FixtureChain.HEIGHT; n++) {
      JsonObject facts = FixtureChain.facts(n);
      JsonObject view = facts.getAsJsonObject("smartbft_view_metadata");
      ViewMetadata ours =
          ViewMetadata.ofSequence(
              view.get("view_id").getAsLong(),
              view.get("latest_sequence").getAsLong(),
              view.get("decisions_in_view").getAsLong());
      ByteString recorded = ByteString.fromHex(facts.get("consenter_metadata").getAsString());
      assertThat(ours.toByteString()).as("block %d", n).isEqualTo(recorded);
      assertThat(ViewMetadata.parse(recorded)).isEqualTo(ours);
      assertThat(ours.latestSequence()).isEqualTo(n);
    }
  }

  /** Property: any ViewMetadata survives encode/decode (seeded; the seed is printed). */
  @Test
  void roundTrips() throws InvalidProtocolBufferException {
    long seed = new Random().nextLong();
    System.out.println("ViewMetadataTest seed " + seed);
    Random random = new Random(seed);
    for (int i = 0; i < 1_000; i++) {
      List<Long> blackList = new ArrayList<>();
      for (int k = random.nextInt(4); k > 0; k--) {
        blackList.add(random.nextLong());
      }
      byte[] digest = new byte[random.nextBoolean() ? 0 : 32];
      random.nextBytes(digest);
      ViewMetadata metadata =
          new ViewMetadata(
              random.nextBoolean() ? 0 : random.nextLong(),
              random.nextLong(),
              random.nextInt(3) == 0 ? 0 : random.nextLong(),
              blackList,
              ByteString.copyFrom(digest));
      assertThat(ViewMetadata.parse(metadata.toByteString()))
          .as("seed %d", seed)
          .isEqualTo(metadata);
    }
  }

  @Test
  void emptyBytesAreTheZeroMetadata() throws InvalidProtocolBufferException {
    assertThat(ViewMetadata.parse(ByteString.EMPTY)).isEqualTo(ViewMetadata.ofSequence(0, 0, 0));
    assertThat(ViewMetadata.ofSequence(0, 0, 0).toByteString()).isEqualTo(ByteString.EMPTY);
  }
}
