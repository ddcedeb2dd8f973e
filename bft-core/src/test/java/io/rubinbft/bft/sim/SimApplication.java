package io.rubinbft.bft.sim;

import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.spi.ProposalAssembler;
import io.rubinbft.bft.spi.ProposalVerifier;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A block-like application: the payload is (sequence, hash of the previous payload, request count),
 * which backups recompute, so a primary cannot invent block numbers or break the chain.
 */
public final class SimApplication implements ProposalAssembler, ProposalVerifier {

  @Override
  public byte[] assemble(long sequence, List<Request> batch, Proposal previous) {
    return payload(sequence, previous, batch.size());
  }

  @Override
  public Optional<String> invalidReason(Proposal proposal, Proposal previous) {
    byte[] expected = payload(proposal.sequence(), previous, proposal.requests().size());
    return Arrays.equals(expected, proposal.payload())
        ? Optional.empty()
        : Optional.of("block header does not match sequence " + proposal.sequence());
  }

  private static byte[] payload(long sequence, Proposal previous, int count) {
    byte[] previousHash = previous == null ? new byte[32] : SimKeys.sha256(previous.payload());
    return ByteBuffer.allocate(8 + 32 + 4)
        .putLong(sequence)
        .put(previousHash)
        .putInt(count)
        .array();
  }
}
