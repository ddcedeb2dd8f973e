package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionQueue;
import io.rubinbft.net.verbs.ConnectionEventHandler;
import io.rubinbft.net.verbs.ConnectionListener;
import io.rubinbft.net.verbs.EventChannel;
import io.rubinbft.net.verbs.PendingConnection;
import io.rubinbft.net.verbs.QueuePairSpec;
import io.rubinbft.net.verbs.RegisteredMemory;
import io.rubinbft.net.verbs.VerbsDevice;
import io.rubinbft.net.verbs.VerbsException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A software verbs device with RDMA's reliable-connected queue-pair semantics between processes on
 * one host, over memory-mapped files in a directory (tmpfs by default). Registered memory is a
 * mapped file; each queue pair side is a mapped file holding its rings; a send copies straight from
 * the sender's registered memory into the buffer of the peer's oldest posted receive, which the
 * sender's process maps. Posting and polling are memory operations only; an idle poller sleeps in
 * the kernel through {@link #eventChannel()}, and peers ring it awake only while it sleeps. See
 * rdma-net/SHM.md.
 *
 * <p>Like the selector that drives it, a device is used by one thread at a time.
 */
public final class ShmVerbsDevice implements VerbsDevice {

  /** Most regions a device registers at once: each is a file and a mapping. */
  public static final int MAX_REGIONS = 4096;

  /** Most queue pairs a device holds at once: each is a file and a mapping. */
  public static final int MAX_QUEUE_PAIRS = 4096;

  private final ShmOptions options;
  private final DeviceDirectory directory;
  private final Liveness liveness;
  private final ShmConnections connections;
  private final Doorbell doorbell;
  private final ShmEventChannel eventChannel;
  private final List<ShmRegisteredMemory> regions = new ArrayList<>();
  private final List<ShmCompletionQueue> completionQueues = new ArrayList<>();
  private final List<ShmQueuePair> queuePairs = new ArrayList<>();
  private long receiverNotReadyRetries;
  private int nextRegionId;
  private int nextQueuePairNumber;
  private boolean closed;

  private ShmVerbsDevice(
      ShmOptions options, DeviceDirectory directory, Liveness liveness, Doorbell doorbell) {
    this.options = options;
    this.directory = directory;
    this.liveness = liveness;
    this.connections = new ShmConnections(this, directory, liveness);
    this.doorbell = doorbell;
    this.eventChannel = new ShmEventChannel(this, connections, doorbell);
  }

  /**
   * Opens a device under {@code options.root()}, creating the directory (0700) if needed; an
   * existing one must be this user's with mode 0700 ({@link ShmPermissions}).
   */
  public static ShmVerbsDevice open(ShmOptions options) throws VerbsException {
    Path root = options.root();
    ShmPermissions.prepareRoot(root);
    DeviceDirectory directory = new DeviceDirectory(root);
    long key = new SecureRandom().nextLong();
    Owner self = Owner.inThisProcess(key);
    Liveness liveness =
        directory.underSetupLock(
            () -> {
              directory.createDeviceDir(key);
              Liveness started = Liveness.start(directory, self);
              started.sweepDeadDevices();
              return started;
            });
    Doorbell doorbell;
    try {
      doorbell = Doorbell.open(directory, key);
    } catch (VerbsException e) {
      liveness.close();
      DeviceDirectory.deleteTree(directory.deviceDir(key));
      throw e;
    }
    return new ShmVerbsDevice(options, directory, liveness, doorbell);
  }

  /**
   * How many delivery passes so far found a send's receive not posted, over all of this device's
   * pairs. The RUBIN layer's credits keep it at zero; anything else is the failure that crashed
   * RUBIN in the making.
   */
  public long receiverNotReadyRetries() {
    return receiverNotReadyRetries;
  }

  /** Whether any pair has a send waiting for a posted receive: then the poller must not sleep. */
  boolean hasUndeliveredSends() {
    for (int i = 0; i < queuePairs.size(); i++) {
      if (queuePairs.get(i).hasUndeliveredSends()) {
        return true;
      }
    }
    return false;
  }

  void countReceiverNotReady() {
    receiverNotReadyRetries++;
  }

  ShmOptions options() {
    return options;
  }

  DeviceDirectory directory() {
    return directory;
  }

  @Override
  public String name() {
    return "shm:" + directory.root();
  }

  @Override
  public RegisteredMemory register(long bytes) throws VerbsException {
    checkOpen();
    if (bytes < 1) {
      throw new VerbsException("cannot register " + bytes + " bytes: at least 1 is needed");
    }
    if (regions.size() >= MAX_REGIONS) {
      throw new VerbsException(name() + " already holds its limit of " + MAX_REGIONS + " regions");
    }
    int regionId = nextRegionId++;
    Path path = directory.region(liveness.self().deviceKey(), regionId);
    // Owned by the object built on it, whose close() closes it (and closed here on failure).
    @SuppressWarnings("MustBeClosedChecker")
    Arena arena = Arena.ofShared();
    try {
      MemorySegment segment = directory.createMapped(path, bytes, arena);
      ShmRegisteredMemory region = new ShmRegisteredMemory(this, regionId, segment, arena, path);
      regions.add(region);
      return region;
    } catch (VerbsException e) {
      arena.close();
      throw e;
    }
  }

  @Override
  public CompletionQueue createCompletionQueue(int capacity) throws VerbsException {
    checkOpen();
    if (capacity < 1) {
      throw new VerbsException("completion queue capacity is " + capacity + " but must be >= 1");
    }
    ShmCompletionQueue queue = new ShmCompletionQueue(this, capacity);
    completionQueues.add(queue);
    return queue;
  }

  @Override
  public ConnectionListener listen(InetSocketAddress address, QueuePairSpec spec)
      throws VerbsException {
    checkOpen();
    return connections.listen(address, spec);
  }

  @Override
  public PendingConnection connect(
      InetSocketAddress address, QueuePairSpec spec, byte[] privateData) throws VerbsException {
    checkOpen();
    return connections.connect(address, spec, privateData);
  }

  @Override
  public int maxPrivateDataBytes() {
    return QueuePairFileDescriptor.MAX_PRIVATE_DATA;
  }

  @Override
  public int pollConnectionEvents(ConnectionEventHandler handler) throws VerbsException {
    checkOpen();
    return connections.poll(handler);
  }

  @Override
  public Optional<EventChannel> eventChannel() {
    return Optional.of(eventChannel);
  }

  /** Checks that {@code spec} fits this device's limits and names its completion queues. */
  void checkSpec(QueuePairSpec spec) throws VerbsException {
    for (CompletionQueue queue : List.of(spec.sendCompletions(), spec.receiveCompletions())) {
      if (!(queue instanceof ShmCompletionQueue shm) || shm.device() != this) {
        throw new VerbsException(queue + " is not a completion queue of " + name());
      }
    }
    int maxDepth = QueuePairFileDescriptor.MAX_QUEUE_DEPTH;
    if (spec.sendQueueDepth() > maxDepth || spec.receiveQueueDepth() > maxDepth) {
      throw new VerbsException(
          "queue depths are "
              + spec.sendQueueDepth()
              + "/"
              + spec.receiveQueueDepth()
              + " but at most "
              + maxDepth
              + " are supported");
    }
    if (spec.maxInlineBytes() > SendQueue.MAX_INLINE_BYTES) {
      throw new VerbsException(
          "max inline bytes is "
              + spec.maxInlineBytes()
              + " but at most "
              + SendQueue.MAX_INLINE_BYTES
              + " are supported");
    }
  }

  /** Creates a queue pair and its file; it learns its peer when the connection gets one. */
  ShmQueuePair createQueuePair(QueuePairSpec spec) throws VerbsException {
    checkSpec(spec);
    if (queuePairs.size() >= MAX_QUEUE_PAIRS) {
      throw new VerbsException(
          name() + " already holds its limit of " + MAX_QUEUE_PAIRS + " queue pairs");
    }
    int number = nextQueuePairNumber++;
    Path path = directory.queuePair(liveness.self().deviceKey(), number);
    long bytes = QueuePairFileDescriptor.fileBytes(spec.receiveQueueDepth());
    reserveCompletions(spec);
    // Owned by the object built on it, whose close() closes it (and closed here on failure).
    @SuppressWarnings("MustBeClosedChecker")
    Arena arena = Arena.ofShared();
    MemorySegment segment;
    try {
      segment = directory.createMapped(path, bytes, arena);
    } catch (VerbsException e) {
      arena.close();
      releaseCompletions(
          spec.sendCompletions(),
          spec.receiveCompletions(),
          spec.sendQueueDepth(),
          spec.receiveQueueDepth());
      throw e;
    }
    QueuePairFile file =
        QueuePairFile.initialize(segment, liveness.self(), spec.receiveQueueDepth());
    ShmQueuePair pair =
        new ShmQueuePair(
            this, number, new ShmQueuePair.QueuePairResources(arena, path, file, spec));
    pair.sendCompletions().attach(pair);
    pair.receiveCompletions().attach(pair);
    queuePairs.add(pair);
    return pair;
  }

  /** Takes room in the pair's completion queues for all its work requests, or refuses. */
  private static void reserveCompletions(QueuePairSpec spec) throws VerbsException {
    ShmCompletionQueue sends = (ShmCompletionQueue) spec.sendCompletions();
    ShmCompletionQueue receives = (ShmCompletionQueue) spec.receiveCompletions();
    sends.reserve(spec.sendQueueDepth());
    try {
      receives.reserve(spec.receiveQueueDepth());
    } catch (VerbsException e) {
      sends.release(spec.sendQueueDepth());
      throw e;
    }
  }

  private static void releaseCompletions(
      CompletionQueue sends, CompletionQueue receives, int sendDepth, int receiveDepth) {
    ((ShmCompletionQueue) sends).release(sendDepth);
    ((ShmCompletionQueue) receives).release(receiveDepth);
  }

  void forget(ShmQueuePair pair) {
    pair.sendCompletions().detach(pair);
    pair.receiveCompletions().detach(pair);
    releaseCompletions(
        pair.sendCompletions(),
        pair.receiveCompletions(),
        pair.sendRequests().capacity(),
        pair.receiveRequests().capacity());
    queuePairs.remove(pair);
  }

  void forget(ShmRegisteredMemory region) {
    regions.remove(region);
  }

  void forget(ShmCompletionQueue queue) {
    completionQueues.remove(queue);
  }

  private void checkOpen() throws VerbsException {
    if (closed) {
      throw new VerbsException(name() + " is closed");
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    connections.close();
    List.copyOf(queuePairs).forEach(ShmQueuePair::close);
    List.copyOf(completionQueues).forEach(ShmCompletionQueue::close);
    List.copyOf(regions).forEach(ShmRegisteredMemory::close);
    closed = true;
    doorbell.close();
    liveness.close();
    DeviceDirectory.deleteTree(directory.deviceDir(liveness.self().deviceKey()));
  }

  @Override
  public String toString() {
    return name() + " device " + liveness.self().keyText();
  }
}
