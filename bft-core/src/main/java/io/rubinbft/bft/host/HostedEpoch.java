package io.rubinbft.bft.host;

import io.rubinbft.bft.ArchiveRead;
import io.rubinbft.bft.Decision;
import io.rubinbft.bft.Outbound;
import io.rubinbft.bft.WalRecord;
import io.rubinbft.bft.protocol.Replica;
import java.util.List;

/**
 * One consensus epoch as an environment runs it for {@link EpochHost}: the epoch's replica and the
 * ports the host drives for it (its own WAL, the network framed with this epoch, the application's
 * durable store for peers' archive reads, the switch rule).
 */
public interface HostedEpoch {

  /** The epoch's name: the sequence of its anchor (0 for the genesis epoch). */
  long number();

  Replica replica();

  /**
   * Sends messages framed with this epoch: one naming a replica to that member, one naming none to
   * every other member.
   */
  void send(List<Outbound> messages);

  /** Answers peers' archive reads from the application's durable store (may be late). */
  void serve(List<ArchiveRead> reads);

  /** Appends records to this epoch's WAL; they need not be durable before {@link #sync}. */
  void append(List<WalRecord> records);

  /** Makes every record appended so far durable. */
  void sync();

  /** Closes this epoch's WAL: the epoch ended or the host stops. */
  void close();

  /**
   * Whether {@code decision} ends this epoch once executed: the host's switch rule, which must be
   * exactly the replica's {@code ProposalAssembler.endsEpoch} (bft-core README, "Epochs").
   */
  boolean endsEpoch(Decision decision);
}
