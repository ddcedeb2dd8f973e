package io.rubinbft.bft.host;

/**
 * The trigger of a catch-up from a view change that does not install, or a complaint that no f + 1
 * replicas join (the replica then stays in its view): a replica in either state for its view-change
 * timeout, delivering nothing meanwhile, may be stalled for good behind an epoch end (when only
 * nodes the config block removed executed it, the members it kept cannot form a view-change quorum
 * and no member of the new epoch sends them a frame of it), as a SmartBFT orderer syncs when a view
 * change times out. While the replica stays stalled it is reported again after each further wait,
 * which doubles per report up to {@link #MAX_DOUBLINGS} doublings; an installed view resets it.
 * Counted in ticks, so the orderer and the simulator run the same rule.
 */
public final class StalledViewChange {

  /** The wait before a report is at most 2^3 view-change timeouts. */
  static final int MAX_DOUBLINGS = 3;

  private final long timeoutTicks;
  private long changingTicks;
  private int reportsInARow;

  public StalledViewChange(long viewChangeTimeoutTicks) {
    this.timeoutTicks = Math.max(1, viewChangeTimeoutTicks);
  }

  /**
   * One tick of the replica whose view is {@code installed} (and not complained about) or not.
   *
   * @return whether the view change has now stalled past its patience: ask the peers' ledgers
   */
  public boolean onTick(boolean installed) {
    if (installed) {
      changingTicks = 0;
      reportsInARow = 0;
      return false;
    }
    changingTicks++;
    if (changingTicks < timeoutTicks << Math.min(reportsInARow, MAX_DOUBLINGS)) {
      return false;
    }
    changingTicks = 0;
    reportsInARow++;
    return true;
  }
}
