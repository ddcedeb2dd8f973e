package io.rubinbft.bft;

import static io.rubinbft.bft.Bounds.atLeast;

import io.rubinbft.bft.message.Decisions;

/**
 * A replica's fixed parameters. Times are in ticks (the host decides how long a tick is).
 *
 * @param replicas number of replicas n
 * @param self this replica's id in [0, n)
 * @param batchMaxCount most requests in one proposal
 * @param batchMaxBytes most request bytes in one proposal
 * @param batchTimeoutTicks how long the primary waits to fill a batch before proposing a partial
 *     one while a proposal of its own is undecided (with none in flight it proposes at once)
 * @param window L: proposals may be in flight at sequences (h, h + L], h the stable checkpoint
 * @param checkpointInterval K: a checkpoint every K sequence numbers; must divide L
 * @param poolLimit most pending requests; more are rejected (push-back)
 * @param requestMaxBytes largest acceptable request
 * @param requestTimeoutTicks a request pending this long in a view triggers a view change
 * @param viewChangeTimeoutTicks base time for a view change to complete; doubles per failed attempt
 * @param statusIntervalTicks how often a replica announces its status and retransmits its votes
 * @param retainedDecisions decisions kept in memory to serve state transfer (their digests are kept
 *     for at least a window, to verify checkpoints against)
 * @param decidedIdMemory ids of recently decided requests remembered for deduplication
 * @param answerMaxBytes most bytes of decisions in one state-transfer answer this replica sends,
 *     from memory or through its host's archive ({@link io.rubinbft.bft.message.Decisions.Budget},
 *     at least one decision): at most {@link io.rubinbft.bft.message.Decisions#MAX_ANSWER_BYTES},
 *     less where the host's links and its peers' input queues hold less, so that an answer is not
 *     dropped on its way
 * @param windowBytes W: most request bytes ({@link Request#size()}) of the proposals at sequences
 *     (h, s] when a primary proposes at s: it proposes only while those in flight and a full batch
 *     fit. A checkpoint falls every K sequences, or earlier at the first sequence whose proposals
 *     since the last checkpoint reach W less a full batch ({@link #checkpointBytes}), so a primary
 *     always reaches the next checkpoint. A backup holds at most 2W of proposals above its own h
 *     ({@link #backupWindowBytes}) and drops a pre-prepare beyond that (bft-core/README.md "Window
 *     in bytes"). More than batchMaxBytes
 * @param cutSpacingTicks least time between two of the primary's cuts of a partial batch: a partial
 *     batch is cut only this long after the previous cut (a full one at once), so a primary with a
 *     steady trickle of requests cuts fewer, larger batches; a lone request on a primary that cut
 *     nothing for this long is still cut at once. 0: no spacing
 */
public record ReplicaConfig(
    int replicas,
    int self,
    int batchMaxCount,
    long batchMaxBytes,
    int batchTimeoutTicks,
    int window,
    int checkpointInterval,
    int poolLimit,
    int requestMaxBytes,
    int requestTimeoutTicks,
    int viewChangeTimeoutTicks,
    int statusIntervalTicks,
    int retainedDecisions,
    int decidedIdMemory,
    long answerMaxBytes,
    long windowBytes,
    int cutSpacingTicks) {

  /** Doubling of the view-change timeout stops after this many failed attempts in a row. */
  public static final int MAX_BACKOFF_DOUBLINGS = 6;

  public ReplicaConfig {
    atLeast("replicas", replicas, 1);
    if (self < 0 || self >= replicas) {
      throw new IllegalArgumentException(
          "self is " + self + " but must be in [0, " + replicas + ")");
    }
    atLeast("batchMaxCount", batchMaxCount, 1);
    atLeast("requestMaxBytes", requestMaxBytes, 1);
    atLeast("batchMaxBytes", batchMaxBytes, requestMaxBytes);
    atLeast("batchTimeoutTicks", batchTimeoutTicks, 0);
    atLeast("checkpointInterval", checkpointInterval, 1);
    atLeast("window", window, 2L * checkpointInterval);
    if (window % checkpointInterval != 0) {
      throw new IllegalArgumentException(
          "window is "
              + window
              + " but must be a multiple of checkpointInterval "
              + checkpointInterval);
    }
    atLeast("poolLimit", poolLimit, batchMaxCount);
    atLeast("requestTimeoutTicks", requestTimeoutTicks, 1);
    atLeast("viewChangeTimeoutTicks", viewChangeTimeoutTicks, 1);
    atLeast("statusIntervalTicks", statusIntervalTicks, 1);
    atLeast("retainedDecisions", retainedDecisions, 1);
    atLeast("decidedIdMemory", decidedIdMemory, poolLimit);
    atLeast("answerMaxBytes", answerMaxBytes, 1);
    atLeast("windowBytes", windowBytes, batchMaxBytes + 1);
    atLeast("cutSpacingTicks", cutSpacingTicks, 0);
    if (answerMaxBytes > Decisions.MAX_ANSWER_BYTES) {
      throw new IllegalArgumentException(
          "answerMaxBytes is "
              + answerMaxBytes
              + " but must be at most "
              + Decisions.MAX_ANSWER_BYTES);
    }
  }

  /** A config without cut spacing: the primary cuts a partial batch as soon as it is due. */
  public ReplicaConfig(
      int replicas,
      int self,
      int batchMaxCount,
      long batchMaxBytes,
      int batchTimeoutTicks,
      int window,
      int checkpointInterval,
      int poolLimit,
      int requestMaxBytes,
      int requestTimeoutTicks,
      int viewChangeTimeoutTicks,
      int statusIntervalTicks,
      int retainedDecisions,
      int decidedIdMemory,
      long answerMaxBytes,
      long windowBytes) {
    this(
        replicas,
        self,
        batchMaxCount,
        batchMaxBytes,
        batchTimeoutTicks,
        window,
        checkpointInterval,
        poolLimit,
        requestMaxBytes,
        requestTimeoutTicks,
        viewChangeTimeoutTicks,
        statusIntervalTicks,
        retainedDecisions,
        decidedIdMemory,
        answerMaxBytes,
        windowBytes,
        0);
  }

  /**
   * A window counted in sequences only: its byte budget holds a window of full batches, so it never
   * binds before the count does.
   */
  public ReplicaConfig(
      int replicas,
      int self,
      int batchMaxCount,
      long batchMaxBytes,
      int batchTimeoutTicks,
      int window,
      int checkpointInterval,
      int poolLimit,
      int requestMaxBytes,
      int requestTimeoutTicks,
      int viewChangeTimeoutTicks,
      int statusIntervalTicks,
      int retainedDecisions,
      int decidedIdMemory,
      long answerMaxBytes) {
    this(
        replicas,
        self,
        batchMaxCount,
        batchMaxBytes,
        batchTimeoutTicks,
        window,
        checkpointInterval,
        poolLimit,
        requestMaxBytes,
        requestTimeoutTicks,
        viewChangeTimeoutTicks,
        statusIntervalTicks,
        retainedDecisions,
        decidedIdMemory,
        answerMaxBytes,
        window * batchMaxBytes);
  }

  /**
   * The most request bytes of proposals a backup holds above its stable checkpoint: the primary's
   * budget and one checkpoint interval (less than {@link #checkpointBytes} and a full batch), the
   * most a backup one checkpoint behind the primary holds below the primary's stable checkpoint.
   */
  public long backupWindowBytes() {
    return 2 * windowBytes;
  }

  /**
   * A checkpoint falls at the first sequence whose proposals since the last checkpoint hold this
   * many request bytes, if K sequences did not come first: W less a full batch, so that the
   * proposals from h up to the next checkpoint always fit the primary's budget.
   */
  public long checkpointBytes() {
    return windowBytes - batchMaxBytes;
  }

  /** Sensible defaults for {@code replicas} replicas, this one being {@code self}. */
  public static ReplicaConfig defaults(int replicas, int self) {
    return new ReplicaConfig(
        replicas,
        self,
        100,
        1 << 20,
        2,
        64,
        16,
        10_000,
        1 << 16,
        200,
        100,
        20,
        1024,
        100_000,
        Decisions.MAX_ANSWER_BYTES);
  }

  public ReplicaConfig withSelf(int id) {
    return new ReplicaConfig(
        replicas,
        id,
        batchMaxCount,
        batchMaxBytes,
        batchTimeoutTicks,
        window,
        checkpointInterval,
        poolLimit,
        requestMaxBytes,
        requestTimeoutTicks,
        viewChangeTimeoutTicks,
        statusIntervalTicks,
        retainedDecisions,
        decidedIdMemory,
        answerMaxBytes,
        windowBytes,
        cutSpacingTicks);
  }

  /** This config with {@code ticks} between two cuts of a partial batch. */
  public ReplicaConfig withCutSpacingTicks(int ticks) {
    return new ReplicaConfig(
        replicas,
        self,
        batchMaxCount,
        batchMaxBytes,
        batchTimeoutTicks,
        window,
        checkpointInterval,
        poolLimit,
        requestMaxBytes,
        requestTimeoutTicks,
        viewChangeTimeoutTicks,
        statusIntervalTicks,
        retainedDecisions,
        decidedIdMemory,
        answerMaxBytes,
        windowBytes,
        ticks);
  }
}
