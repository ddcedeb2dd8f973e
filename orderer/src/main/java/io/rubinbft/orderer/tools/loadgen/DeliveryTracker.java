package io.rubinbft.orderer.tools.loadgen;

import com.google.protobuf.ByteString;
import io.rubinbft.ledger.BlockHashing;
import io.rubinbft.orderer.block.EnvelopeHeaders;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.jspecify.annotations.Nullable;

/**
 * Follows the blocks a Deliver stream returns: checks the hash chain and each block's data hash and
 * signatures, matches transactions to their submission times, and counts duplicates (a tx id
 * ordered twice) and foreign transactions (not submitted by this run).
 */
final class DeliveryTracker {

  private final Map<String, Long> submittedAtNanos = new ConcurrentHashMap<>();
  private final Function<Block, Optional<String>> signatureCheck;
  private final Set<String> delivered = new HashSet<>();
  private final Set<String> accepted = new HashSet<>();
  private long undelivered;
  private final Histogram latencyMicros = new Histogram(TimeUnit.MINUTES.toMicros(10), 3);
  private byte @Nullable [] previousHeaderHash;
  private long previousNumber = -1;
  private long duplicates;
  private long foreign;
  private long blocks;
  private long lastDeliveryNanos;
  private @Nullable String firstProblem;

  /**
   * @param signatureCheck why a block's signatures do not verify, or empty if they do
   */
  DeliveryTracker(Function<Block, Optional<String>> signatureCheck) {
    this.signatureCheck = signatureCheck;
  }

  /** Records that {@code txId} was first sent at {@code nanos} (System.nanoTime). */
  void submitted(String txId, long nanos) {
    submittedAtNanos.put(txId, nanos);
  }

  /** Records that a quorum of orderers answered SUCCESS to {@code txId}. */
  synchronized void accepted(String txId) {
    if (accepted.add(txId) && !delivered.contains(txId)) {
      undelivered++;
    }
  }

  void onBlock(Block block, long receivedNanos) {
    // Outside this tracker's lock: the check may fetch earlier blocks from the cluster, and
    // submitters take the lock for every acknowledged transaction (accepted).
    Optional<String> unsigned = signatureCheck.apply(block);
    record(block, receivedNanos, unsigned);
  }

  private synchronized void record(Block block, long receivedNanos, Optional<String> unsigned) {
    blocks++;
    lastDeliveryNanos = receivedNanos;
    checkChain(block);
    unsigned.ifPresent(reason -> problem("block " + block.getHeader().getNumber() + ": " + reason));
    for (ByteString data : block.getData().getDataList()) {
      String txId = txId(data);
      Long sentAt = submittedAtNanos.get(txId);
      if (sentAt == null) {
        foreign++;
      } else if (!delivered.add(txId)) {
        duplicates++;
      } else {
        if (accepted.contains(txId)) {
          undelivered--;
        }
        latencyMicros.recordValue(
            Math.min(
                latencyMicros.getHighestTrackableValue(),
                TimeUnit.NANOSECONDS.toMicros(receivedNanos - sentAt)));
      }
    }
  }

  /** Accepted transactions not delivered (yet). */
  synchronized long undelivered() {
    return undelivered;
  }

  synchronized DeliveryStats stats() {
    return new DeliveryStats(
        blocks,
        Set.copyOf(delivered),
        Set.copyOf(accepted),
        undelivered,
        duplicates,
        foreign,
        latencyMicros.copy(),
        lastDeliveryNanos,
        Optional.ofNullable(firstProblem));
  }

  private void checkChain(Block block) {
    long number = block.getHeader().getNumber();
    if (previousNumber >= 0 && number != previousNumber + 1) {
      problem("block " + number + " follows block " + previousNumber);
    }
    if (previousHeaderHash != null
        && !Arrays.equals(previousHeaderHash, block.getHeader().getPreviousHash().toByteArray())) {
      problem("block " + number + "'s previous hash is not the hash of block " + previousNumber);
    }
    // Header-only blocks (HEADER_WITH_SIG) carry no data to hash.
    if (block.getData().getDataCount() > 0
        && !Arrays.equals(
            BlockHashing.dataHash(block.getData()),
            block.getHeader().getDataHash().toByteArray())) {
      problem("block " + number + "'s data hash does not match its data");
    }
    previousNumber = number;
    previousHeaderHash = BlockHashing.headerHash(block.getHeader());
  }

  private void problem(String description) {
    if (firstProblem == null) {
      firstProblem = description;
    }
  }

  private static String txId(ByteString envelopeBytes) {
    return EnvelopeHeaders.channelHeader(envelopeBytes).map(ChannelHeader::getTxId).orElse("");
  }
}
