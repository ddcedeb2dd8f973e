package io.rubinbft.orderer.memory;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.rubinbft.ledger.BlockStoreConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The heap a node needs, summed from the byte budgets of everything it may hold, and whether that
 * heap fits the memory the node may use: the one place that sizes a node (orderer/docs/MEMORY.md
 * "Sizing"). The launcher runs {@code cli.HeapOption} for {@code start} and passes what it prints
 * to the JVM; the Helm chart passes the plan to the launcher; a node checks its channels against
 * its own heap with the same sums and warns ({@code node.ChannelHeapCheck}).
 *
 * <p>A plan is what the operator expects to serve: how many channels, their largest
 * BatchSize.AbsoluteMaxBytes and the consenters per channel. Per channel the node may hold twice
 * its window's bytes of proposals above its stable checkpoint and its retained decisions at the
 * channel's proposal cap (as {@link Pipeline#forChannel} derives them from the config), the ids of
 * its last decided transactions, its ledger's tx id filter, its request pool ({@link
 * PoolBytes#forChannel}: at least two proposals at the cap), the client requests and each peer's
 * messages (small and large, a lane each) and forwarded envelopes waiting for its replica (each
 * queue or lane its budget, or one item of the channel's largest when that is larger); per node its
 * own live data and, per peer, the small frames waiting to be sent (the link budget), the large
 * ones (one transport message's worth) and a message being reassembled (up to the transport's
 * limit). The old generation, a fraction {@link #OLD_GENERATION_SIXTHS}/6 of the heap with the
 * launcher's {@code -XX:NewRatio=5}, must hold all of it.
 */
public final class HeapSize {

  static final long MIB = 1L << 20;

  /**
   * One channel's tx id filter in the ledger at its largest (a Bloom filter of up to 1 Mi tx ids in
   * front of RocksDB's, which are in {@link #LEDGER_NATIVE_BYTES_PER_CHANNEL}).
   */
  static final long TX_ID_FILTER_BYTES = BlockStoreConfig.TX_ID_FILTER_HEAP_BYTES;

  /** The node's own live data besides its queues and channels (classes, gRPC, metrics, TLS). */
  static final long NODE_BASE_BYTES = 16 * MIB;

  /**
   * The ids of one channel's last decided transactions (ChannelReplicas' decided-id memory of
   * 100,000), held to refuse duplicates.
   */
  static final long DECIDED_IDS_BYTES = 16 * MIB;

  /**
   * What a node uses outside its heap with the launcher's C1-only defaults: metaspace, code cache,
   * direct buffers of the replica links, glibc's arenas, libraries, thread stacks.
   */
  static final long OUTSIDE_HEAP_BYTES = 200 * MIB;

  /**
   * Direct memory (Netty's and rdma-net's buffers) a node needs whatever its channels: the gRPC
   * messages being received ({@code grpc.InboundMessageBudget}), the replica links' rings, Netty's
   * arenas and small responses. Each channel adds one block at its AbsoluteMaxBytes: a block a
   * Deliver stream sends waits in Netty's buffers until its reader takes it, so a node whose
   * channels are each followed by a reader holds about a block per channel there.
   */
  public static final long DIRECT_BASE_BYTES = 96 * MIB;

  /**
   * RocksDB's budget for each channel's ledger, outside the heap (ledger LedgerDatabase): its block
   * cache, which holds the memtables and the tx index's Bloom filters too.
   */
  static final long LEDGER_NATIVE_BYTES_PER_CHANNEL = 16 * MIB;

  /** The old generation's sixths of the heap ({@code -XX:NewRatio=5}). */
  static final int OLD_GENERATION_SIXTHS = 5;

  /** Fabric's default MaxMessageCount for the plan's channels: the count barely moves the cap. */
  static final int PLAN_BATCH_MAX_COUNT = 500;

  /**
   * What the operator expects a node to serve.
   *
   * @param channels how many channels the node joins
   * @param blockMaxBytes their largest BatchSize.AbsoluteMaxBytes
   * @param consenters consenters per channel
   */
  public record Plan(int channels, long blockMaxBytes, int consenters) {

    /** One channel with Fabric's default AbsoluteMaxBytes (10 MB) on four consenters. */
    public static final Plan DEFAULT = new Plan(1, 10 * MIB, 4);

    public Plan {
      if (channels < 1 || blockMaxBytes < 1 || consenters < 1) {
        throw new IllegalArgumentException(
            "a plan needs at least one channel, one block byte and one consenter, got "
                + channels
                + " channels, blocks of "
                + blockMaxBytes
                + " bytes and "
                + consenters
                + " consenters");
      }
    }
  }

  /**
   * The heap bytes one channel needs at most: its windows of blocks, its decided ids and tx id
   * filter, its request pool and every queue of it.
   *
   * @param consenters the channel's consenters
   * @param batchMaxCount its MaxMessageCount
   * @param batchMaxBytes its AbsoluteMaxBytes
   * @param requestMaxBytes its largest envelope
   */
  public static long channelBytes(
      MemoryBudgets budgets,
      int consenters,
      int batchMaxCount,
      long batchMaxBytes,
      long requestMaxBytes) {
    Pipeline pipeline =
        Pipeline.forChannel(consenters, batchMaxCount, batchMaxBytes, requestMaxBytes);
    long proposal = pipeline.batchMaxBytes();
    long request = pipeline.requestMaxBytes();
    int peers = consenters - 1;
    long blocks = 2 * pipeline.windowBytes() + pipeline.retainedDecisions() * proposal;
    long queues =
        Math.max(budgets.clientInputBytes(), request)
            + peers * (budgets.peerInputBytes() + Math.max(budgets.peerInputBytes(), proposal))
            + peers * Math.max(budgets.peerInputBytes(), request);
    long pool = PoolBytes.forChannel(budgets, pipeline, batchMaxCount).limit();
    return blocks + DECIDED_IDS_BYTES + TX_ID_FILTER_BYTES + pool + queues;
  }

  /** The heap bytes a node needs besides its channels' own. */
  public static long nodeBytes(MemoryBudgets budgets, int consenters) {
    int peers = consenters - 1;
    long transport = MessageLimits.TRANSPORT_MAX_MESSAGE_BYTES;
    return NODE_BASE_BYTES + peers * (budgets.peerLinkBytes() + transport + transport);
  }

  /**
   * This JVM's heap ceiling as it was given ({@code -Xmx}): {@link Runtime#maxMemory} leaves out a
   * survivor space, which would make the plan's own heap look too small for the plan.
   */
  public static long jvmHeapBytes() {
    return Long.parseLong(
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
            .getVMOption("MaxHeapSize")
            .getValue());
  }

  /** The smallest heap whose old generation holds {@code liveBytes}, in whole MiB. */
  public static long heapFor(long liveBytes) {
    long heap = Math.ceilDiv(liveBytes * 6, OLD_GENERATION_SIXTHS);
    return Math.ceilDiv(heap, MIB) * MIB;
  }

  /** What a node with {@code plan} needs. */
  public static Need need(Plan plan, MemoryBudgets budgets) {
    long channel =
        channelBytes(
            budgets,
            plan.consenters(),
            PLAN_BATCH_MAX_COUNT,
            plan.blockMaxBytes(),
            plan.blockMaxBytes());
    long node = nodeBytes(budgets, plan.consenters());
    long live = node + plan.channels() * channel;
    long deliver = plan.channels() * plan.blockMaxBytes();
    long outside = OUTSIDE_HEAP_BYTES + plan.channels() * LEDGER_NATIVE_BYTES_PER_CHANNEL + deliver;
    return new Need(plan, channel, node, heapFor(live), DIRECT_BASE_BYTES + deliver, outside);
  }

  /**
   * What a plan needs.
   *
   * @param channelBytes heap bytes each channel needs at most
   * @param nodeBytes heap bytes the node needs besides its channels
   * @param heapBytes the heap ceiling that holds them all in its old generation
   * @param directBytes the direct-memory ceiling ({@code -XX:MaxDirectMemorySize}): {@link
   *     #DIRECT_BASE_BYTES} and a block per channel being delivered
   * @param outsideHeapBytes what the process uses beside the heap, the blocks being delivered in
   *     direct memory included
   */
  public record Need(
      Plan plan,
      long channelBytes,
      long nodeBytes,
      long heapBytes,
      long directBytes,
      long outsideHeapBytes) {

    /** The memory limit a container needs for this plan. */
    public long memoryBytes() {
      return heapBytes + outsideHeapBytes;
    }

    /** The sum behind the heap, in MiB, for messages. */
    public String explained() {
      return String.format(
          Locale.ROOT,
          "%d channel%s with blocks of at most %d bytes on %d consenters need%s a heap of %d MiB"
              + " (%d MiB per channel: its windows of blocks, decided ids, tx id filter, request pool"
              + " and queues;"
              + " %d MiB for the node: peer links, its own data; the old generation is %d/6"
              + " of the heap) and %d MiB outside it (%d MiB of direct memory at most: a block"
              + " per channel being delivered), %d MiB in all",
          plan.channels(),
          plan.channels() == 1 ? "" : "s",
          plan.blockMaxBytes(),
          plan.consenters(),
          plan.channels() == 1 ? "s" : "",
          heapBytes / MIB,
          Math.ceilDiv(channelBytes, MIB),
          Math.ceilDiv(nodeBytes, MIB),
          OLD_GENERATION_SIXTHS,
          outsideHeapBytes / MIB,
          directBytes / MIB,
          memoryBytes() / MIB);
    }
  }

  /**
   * The heap ceiling for {@code need} under {@code limitBytes} (the process's memory limit, if
   * any).
   *
   * @throws IllegalStateException when the plan does not fit the limit, naming the numbers
   */
  public static long ceiling(Need need, OptionalLong limitBytes) {
    if (limitBytes.isPresent() && need.memoryBytes() > limitBytes.getAsLong()) {
      throw new IllegalStateException(
          need.explained()
              + ", but the memory limit is "
              + limitBytes.getAsLong() / MIB
              + " MiB: raise the limit to "
              + Math.ceilDiv(need.memoryBytes(), MIB)
              + " MiB or more, or plan fewer channels or a smaller AbsoluteMaxBytes"
              + " (orderer/docs/MEMORY.md \"Sizing\")");
    }
    return need.heapBytes();
  }

  /**
   * The memory limit of this process: {@code RUBIN_MEMORY_LIMIT} if set, else its cgroup's (v2
   * {@code memory.max}, or v1 {@code memory.limit_in_bytes}); empty when there is none.
   */
  static OptionalLong memoryLimit(Map<String, String> environment, Path cgroupRoot) {
    String explicit = environment.get("RUBIN_MEMORY_LIMIT");
    if (explicit != null && !explicit.isBlank()) {
      return OptionalLong.of(bytes("RUBIN_MEMORY_LIMIT", explicit));
    }
    for (Path file :
        new Path[] {
          cgroupRoot.resolve("memory.max"), cgroupRoot.resolve("memory/memory.limit_in_bytes")
        }) {
      try {
        String value = Files.readString(file).strip();
        // cgroup v1 writes "no limit" as a huge number, rounded to the page size.
        if (!value.equals("max") && Long.parseLong(value) < (1L << 50)) {
          return OptionalLong.of(Long.parseLong(value));
        }
        return OptionalLong.empty();
      } catch (IOException | NumberFormatException e) {
        // Not this cgroup version: try the next.
      }
    }
    return OptionalLong.empty();
  }

  /** The plan in the launcher's variables, each defaulting to {@link Plan#DEFAULT}'s value. */
  static Plan plan(Map<String, String> environment) {
    Plan defaults = Plan.DEFAULT;
    return new Plan(
        (int) number(environment, "RUBIN_CHANNELS", defaults.channels()),
        number(environment, "RUBIN_BLOCK_MAX_BYTES", defaults.blockMaxBytes()),
        (int) number(environment, "RUBIN_CONSENTERS", defaults.consenters()));
  }

  private static long number(Map<String, String> environment, String name, long otherwise) {
    String value = environment.get(name);
    return value == null || value.isBlank() ? otherwise : bytes(name, value);
  }

  /**
   * A count or a size: digits with an optional K, M or G (KiB, MiB, GiB, as Fabric's "10 MB", the
   * JVM's "512m" and Kubernetes' "2Gi"; "B", "i", "iB" and spaces allowed).
   */
  static long bytes(String name, String value) {
    String text = value.strip().toUpperCase(Locale.ROOT).replace(" ", "");
    text = text.endsWith("B") ? text.substring(0, text.length() - 1) : text;
    text = text.endsWith("I") ? text.substring(0, text.length() - 1) : text;
    int shift = 0;
    if (!text.isEmpty()) {
      shift =
          switch (text.charAt(text.length() - 1)) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            default -> -1;
          };
    }
    String digits = shift < 0 ? text : text.substring(0, text.length() - 1);
    try {
      long number = Long.parseLong(digits);
      if (number < 1) {
        throw new NumberFormatException();
      }
      return number << Math.max(shift, 0);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          name + " is \"" + value + "\": expected a positive number, optionally with K, M or G");
    }
  }

  /**
   * The JVM's heap and direct-memory options for the plan in {@code environment} under this
   * process's memory limit ({@code -Xmx<N>m -XX:MaxDirectMemorySize=<M>m}), or with {@code explain}
   * the sum behind them.
   *
   * @throws IllegalArgumentException when a variable is not a number
   * @throws IllegalStateException when the plan does not fit the memory limit (the numbers)
   */
  public static String launcherOption(
      Map<String, String> environment, Path cgroupRoot, boolean explain) {
    Need need = need(plan(environment), MemoryBudgets.standard());
    long heap = ceiling(need, memoryLimit(environment, cgroupRoot));
    return explain
        ? need.explained()
        : "-Xmx"
            + heap / MIB
            + "m -XX:MaxDirectMemorySize="
            + Math.ceilDiv(need.directBytes(), MIB)
            + "m";
  }

  private HeapSize() {}
}
