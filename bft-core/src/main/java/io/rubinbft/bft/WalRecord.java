package io.rubinbft.bft;

import io.rubinbft.bft.message.Checkpoint;
import io.rubinbft.bft.message.Commit;
import io.rubinbft.bft.message.NewView;
import io.rubinbft.bft.message.PrePrepare;
import io.rubinbft.bft.message.Prepare;
import io.rubinbft.bft.message.PreparedCertificate;
import io.rubinbft.bft.message.ViewChange;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a replica must remember across a crash: every vote it cast (so it never casts a conflicting
 * one after a restart), its view, its decisions and its stable checkpoint. {@link Replica#recover}
 * rebuilds a replica from these records in the order they were persisted. A host may drop records
 * about sequences at or below the latest {@link StableCheckpoint}, except that record itself and
 * the decision it names.
 */
public sealed interface WalRecord {

  /** This replica accepted (as backup) or made (as primary) the pre-prepare. */
  record Accepted(PrePrepare prePrepare, @Nullable Prepare ownPrepare) implements WalRecord {}

  /** This replica holds a prepared certificate. */
  record Prepared(PreparedCertificate certificate) implements WalRecord {}

  /** This replica signed the commit. */
  record Signed(Commit commit) implements WalRecord {}

  /** A decision, before it is handed to the application. */
  record Decided(Decision decision) implements WalRecord {}

  /** A checkpoint became stable: a quorum signed this sequence and digest. */
  record StableCheckpoint(long sequence, Digest digest, List<Checkpoint> proof)
      implements WalRecord {}

  /** This replica asked to leave its view for {@code viewChange.newView()}. */
  record ViewChangeSent(ViewChange viewChange) implements WalRecord {}

  /** This replica installed a new view. */
  record ViewInstalled(NewView newView) implements WalRecord {}
}
