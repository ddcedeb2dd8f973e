package io.rubinbft.ledger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.ledger.BlockStore;
import io.rubinbft.ledger.BlockStoreConfig;
import io.rubinbft.ledger.ChannelLedger;
import io.rubinbft.ledger.Durability;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyChainTest {

  @TempDir Path dir;

  @Test
  void printsOneVerdictPerChannelAndExitsByTheWorst() {
    try (BlockStore store = BlockStore.open(BlockStoreConfig.defaults(dir))) {
      ChannelLedger ledger = store.createChannel("alpha");
      SyntheticChain chain = new SyntheticChain(5, "alpha", 2, 100, Optional.empty());
      for (int i = 0; i < 3; i++) {
        ledger.append(chain.next().toByteArray(), Durability.UNSYNCED);
      }
      store.createChannel("empty");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = VerifyChain.run(new String[] {dir.toString()}, new PrintStream(out, true));
    assertThat(status).isEqualTo(VerifyChain.OK);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("alpha: OK, 3 blocks; checksums, data hashes and hash links verified")
        .contains("empty: OK, 0 blocks");

    out.reset();
    status = VerifyChain.run(new String[] {dir.toString(), "nope"}, new PrintStream(out, true));
    assertThat(status).isEqualTo(VerifyChain.FAILED);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("nope: FAILED, no such channel");

    status = VerifyChain.run(new String[0], new PrintStream(out, true));
    assertThat(status).isEqualTo(VerifyChain.CANNOT_RUN);
  }
}
