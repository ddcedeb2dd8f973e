package io.rubinbft.orderer.block;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What checking one block's consenter signatures found.
 *
 * @param blockNumber the block checked
 * @param validSigners distinct consenter ids with a valid signature
 * @param quorum how many are needed
 * @param consenterCount n
 * @param problems one line per signature that did not count (bad bytes, unknown id, duplicate), or
 *     about the metadata itself; signatures beyond a quorum may fail without failing the block, as
 *     with Fabric's policy evaluation
 */
public record SignatureCheck(
    long blockNumber,
    SortedSet<Long> validSigners,
    int quorum,
    int consenterCount,
    List<String> problems) {

  public SignatureCheck {
    validSigners = Collections.unmodifiableSortedSet(new TreeSet<>(validSigners));
    problems = List.copyOf(problems);
  }

  public boolean hasQuorum() {
    return validSigners.size() >= quorum;
  }

  /**
   * Why the block is not certified, if it is not: "block 5 has 2 valid consenter signatures ...".
   */
  public Optional<String> invalidReason() {
    if (hasQuorum()) {
      return Optional.empty();
    }
    return Optional.of(
        "block "
            + blockNumber
            + " has "
            + validSigners.size()
            + " valid consenter signatures "
            + validSigners
            + " but needs "
            + quorum
            + " of "
            + consenterCount
            + (problems.isEmpty() ? "" : "; " + String.join("; ", problems)));
  }
}
