package io.rubinbft.bft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rubinbft.bft.message.Decisions;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.wire.Decoded;
import io.rubinbft.bft.wire.MessageCodec;
import io.rubinbft.bft.wire.WireLimits;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Request#size} is what the wire counts: a batch the primary fills up to its byte limit by
 * {@code size()} always decodes at the backups, whatever characters the ids hold.
 */
class RequestSizeTest {

  private static final long SEED = Long.getLong("property.seed", 20261121L);

  /** Characters of 1, 2, 3 and 4 UTF-8 bytes (the last a surrogate pair). */
  private static final String[] CHARACTERS = {"a", "0", "é", "ж", "€", "中", "😀"};

  private static final ReplicaConfig CONFIG =
      new ReplicaConfig(
          4, 0, 8, 400, 2, 16, 4, 500, 100, 60, 20, 8, 64, 10_000, Decisions.MAX_ANSWER_BYTES);
  private static final MessageCodec CODEC = new MessageCodec(WireLimits.of(CONFIG, 64, 64));

  @Test
  void fullBatchesSizedBySizeAlwaysDecode() {
    Random random = new Random(SEED);
    for (int trial = 0; trial < 2_000; trial++) {
      List<Request> batch = new ArrayList<>();
      long bytes = 0;
      while (batch.size() < CONFIG.batchMaxCount()) {
        Request request = randomRequest(random);
        if (bytes + request.size() > CONFIG.batchMaxBytes()) {
          break;
        }
        batch.add(request);
        bytes += request.size();
      }
      PrePrepare prePrepare =
          new PrePrepare(
              0,
              1,
              new Digest(new byte[32]),
              new Proposal(1, Digest.GENESIS, batch, new byte[8]),
              0,
              new byte[8]);
      assertThat(CODEC.decode(CODEC.encode(prePrepare)))
          .as("seed %d trial %d: %s", SEED, trial, batch)
          .isInstanceOf(Decoded.Valid.class);
    }
  }

  @Test
  void countsTheIdsUtf8Bytes() {
    Request request = new Request(new RequestId("€", "中😀"), new byte[3]);
    assertThat(request.size()).isEqualTo(3 + 3 + 3 + 4);
  }

  @Test
  void refusesIdsThatUtf8CannotCarry() {
    assertThatThrownBy(() -> new RequestId("client", "tx\uD800"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("request id key has a lone surrogate at index 2: not UTF-8");
  }

  /** A request of at most the request limit by {@code size()}, often close to it. */
  private static Request randomRequest(Random random) {
    String client = randomString(random, random.nextInt(30));
    String key = randomString(random, random.nextInt(60));
    int idBytes = new RequestId(client, key).utf8Bytes();
    int payload = random.nextInt(CONFIG.requestMaxBytes() - idBytes + 1);
    return new Request(new RequestId(client, key), new byte[payload]);
  }

  private static String randomString(Random random, int maxBytes) {
    StringBuilder builder = new StringBuilder();
    while (true) {
      String next = CHARACTERS[random.nextInt(CHARACTERS.length)];
      if (Utf8.length(builder + next) > maxBytes) {
        return builder.toString();
      }
      builder.append(next);
    }
  }
}
