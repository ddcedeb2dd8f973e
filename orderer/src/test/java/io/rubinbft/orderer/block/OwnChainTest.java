package io.rubinbft.orderer.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.channel.BatchLimits;
import io.rubinbft.orderer.channel.Fixtures;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.hyperledger.fabric.protos.common.Block;
import org.junit.jupiter.api.Test;

/**
 * Primary and backups together: the fixture chain continued with our own blocks (cut, assembled,
 * checked as proposals, signed by a random quorum, verified), including a config block.
 */
class OwnChainTest {

  private static final int BLOCKS = 12;
  private static final BatchLimits LIMITS = new BatchLimits(30, 32_000, 16_000);

  @Test
  void continuesTheFixtureChain() {
    long seed = new Random().nextLong();
    System.out.println("OwnChainTest seed " + seed);
    Random random = new Random(seed);
    List<PendingRequest> pool = pool(random);
    BatchCutter cutter = new BatchCutter(LIMITS);
    ProposedBlockVerifier backup = new ProposedBlockVerifier(envelope -> Optional.empty());
    BlockSignatureVerifier verifier = FixtureChain.verifier();
    List<BlockSigner> signers = new ArrayList<>();
    for (int n = 1; n <= 4; n++) {
      signers.add(new BlockSigner(n, FixtureChain.ordererSigner(n), new SecureRandom()));
    }
    Block previous = Fixtures.block(9);
    long lastConfig = 7;
    for (int made = 0; made < BLOCKS && !pool.isEmpty(); made++) {
      Batch batch = cutter.next(pool, true).orElseThrow();
      pool = pool.subList(batch.size(), pool.size());
      long number = previous.getHeader().getNumber() + 1;
      ByteString view = ViewMetadata.ofSequence(0, number, number - 1).toByteString();
      Block proposal =
          BlockAssembler.assemble(previous.getHeader(), batch.envelopes(), lastConfig, view);
      assertThat(
              backup.invalidReason(
                  proposal,
                  new ProposalExpectations(previous.getHeader(), lastConfig, LIMITS, view)))
          .as("seed %d block %d", seed, number)
          .isEmpty();
      Collections.shuffle(signers, random);
      Block signed =
          SignedBlocks.withSignatures(
              proposal, signers.subList(0, 3).stream().map(s -> s.sign(proposal)).toList());
      assertThat(verifier.check(signed.getHeader(), signed.getMetadata()).invalidReason())
          .as("seed %d block %d", seed, number)
          .isEmpty();
      assertThat(signed.getHeader().getPreviousHash().toByteArray())
          .isEqualTo(BlockHashing.headerHash(previous.getHeader()));
      if (batch.config()) {
        lastConfig = number;
      }
      assertThat(FixtureChain.ordererMetadata(signed).getLastConfig().getIndex())
          .isEqualTo(lastConfig);
      previous = signed;
    }
    assertThat(lastConfig).as("the config envelope got its own block").isGreaterThan(9);
  }

  /** The fixtures' 55 ordbench envelopes shuffled, with block 6's CONFIG envelope in between. */
  private static List<PendingRequest> pool(Random random) {
    List<PendingRequest> pool = new ArrayList<>();
    for (int n : new int[] {1, 2, 3, 4, 8, 9}) {
      Fixtures.block(n)
          .getData()
          .getDataList()
          .forEach(e -> pool.add(new PendingRequest(e, false)));
    }
    Collections.shuffle(pool, random);
    pool.add(
        random.nextInt(10, 50), new PendingRequest(Fixtures.block(6).getData().getData(0), true));
    return pool;
  }
}
