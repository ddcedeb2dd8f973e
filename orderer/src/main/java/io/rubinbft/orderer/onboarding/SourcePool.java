package io.rubinbft.orderer.onboarding;

import io.grpc.ChannelCredentials;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import io.rubinbft.orderer.channel.ChannelConfig;
import io.rubinbft.orderer.channel.Consenter;
import io.rubinbft.orderer.client.GrpcClients;
import io.rubinbft.orderer.config.HostPort;
import io.rubinbft.orderer.consensus.ConfigState;
import io.rubinbft.orderer.tls.ServerTls;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The orderers blocks are pulled from: the Deliver endpoints of the config in force and of every
 * config used before it (an orderer a config removed keeps serving its ledger, as Fabric's
 * followers do, and may be the only correct one holding the blocks that removed it), over TLS with
 * the server certificate checked against the TLS CAs of the consenters' organizations and this
 * node's own TLS certificate as the client's. For each source the pool keeps the height it claimed
 * at the last probe and whether it is trusted ({@link SourceChoice} picks by those). One that
 * failed, lied or was slow is left alone for a backoff that doubles per failure in a row (bounded),
 * so a liar is asked rarely and an honest source that was merely slow is asked again soon.
 * Thread-safe.
 */
final class SourcePool implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SourcePool.class);

  /** Endpoints kept across configs at most: a config names a few, history adds the removed. */
  private static final int MAX_SOURCES = 64;

  /** One orderer to pull from. */
  static final class Source {
    private final HostPort endpoint;
    private final ManagedChannel channel;
    private int failures;
    private long freeAtNanos;
    private volatile long claimedHeight = -1;
    private boolean distrusted;

    private Source(HostPort endpoint, ManagedChannel channel) {
      this.endpoint = endpoint;
      this.channel = channel;
    }

    HostPort endpoint() {
      return endpoint;
    }

    ManagedChannel channel() {
      return channel;
    }

    /** The height it claimed at the last probe; -1 when it did not answer since it failed. */
    long claimedHeight() {
      return claimedHeight;
    }

    @Override
    public String toString() {
      return endpoint.toString();
    }
  }

  private final PullContext context;
  private List<Source> sources = List.of();
  private long configBlock = -1;
  private int cursor;
  private boolean closed;

  SourcePool(PullContext context) {
    this.context = context;
  }

  /**
   * Takes the endpoints and TLS CAs of {@code config}, keeping the endpoints of the configs before
   * it, unless they are those of its config block.
   */
  synchronized void use(ConfigState config) {
    if (config.config().blockNumber() == configBlock || closed) {
      return;
    }
    List<HostPort> endpoints = new ArrayList<>(endpoints(config.config()));
    for (Source known : sources) {
      if (!endpoints.contains(known.endpoint) && endpoints.size() < MAX_SOURCES) {
        endpoints.add(known.endpoint);
      }
    }
    ChannelCredentials credentials = credentials(config);
    sources.forEach(source -> GrpcClients.close(source.channel));
    List<Source> fresh = new ArrayList<>();
    for (HostPort endpoint : endpoints) {
      fresh.add(new Source(endpoint, GrpcClients.open(endpoint, credentials)));
    }
    sources = List.copyOf(fresh);
    configBlock = config.config().blockNumber();
    cursor = 0;
    LOG.info(
        "channel {}: pulling from {} (config block {})",
        config.config().channelId(),
        endpoints,
        configBlock);
  }

  /**
   * The source to ask for blocks from {@code next} on ({@link SourceChoice#pick}); sources ahead
   * take turns when they claim the same height. Empty when none qualifies.
   */
  synchronized Optional<Source> best(long next, boolean openEnded) {
    return best(next, openEnded, false);
  }

  /**
   * The trusted source to ask for blocks from {@code next} on: one that claims more; empty when
   * only distrusted sources, or none, do.
   */
  synchronized Optional<Source> bestTrusted(long next) {
    return best(next, false, true);
  }

  private Optional<Source> best(long next, boolean openEnded, boolean trustedOnly) {
    long now = System.nanoTime();
    List<SourceChoice.Candidate> candidates = new ArrayList<>(sources.size());
    for (Source source : sources) {
      candidates.add(
          new SourceChoice.Candidate(
              source.freeAtNanos - now <= 0
                  && source.claimedHeight >= 0
                  && !(trustedOnly && source.distrusted),
              source.claimedHeight,
              !source.distrusted));
    }
    OptionalInt picked = SourceChoice.pick(candidates, next, openEnded, cursor);
    if (picked.isEmpty()) {
      return Optional.empty();
    }
    cursor = (picked.getAsInt() + 1) % sources.size();
    return Optional.of(sources.get(picked.getAsInt()));
  }

  /** The sources not left alone after a failure: those worth a height probe. */
  synchronized List<Source> free() {
    long now = System.nanoTime();
    return sources.stream().filter(source -> source.freeAtNanos - now <= 0).toList();
  }

  /** {@code source} claims {@code height} (its newest block is {@code height - 1}). */
  synchronized void claimed(Source source, long height) {
    source.claimedHeight = height;
  }

  /** How many sources are distrusted. */
  synchronized int distrusted() {
    return (int) sources.stream().filter(source -> source.distrusted).count();
  }

  /** Every source, whether left alone or not. */
  synchronized List<Source> all() {
    return sources;
  }

  /** {@code source} failed or was slow: it is left alone for a while. */
  synchronized void failed(Source source, String reason) {
    source.failures++;
    source.claimedHeight = -1;
    long backoff = context.limits().backoff(source.failures).toNanos();
    source.freeAtNanos = System.nanoTime() + backoff;
    LOG.warn(
        "pulling from {} failed ({} in a row), next try in {} ms: {}",
        source.endpoint,
        source.failures,
        TimeUnit.NANOSECONDS.toMillis(backoff),
        reason);
  }

  /**
   * {@code source} did not serve a height it claimed, or sent a block that failed its checks: it is
   * left alone for a while and distrusted until it keeps a claim.
   */
  synchronized void lied(Source source, String reason) {
    if (!source.distrusted) {
      LOG.warn("distrusting {} until it serves a height it claims", source.endpoint);
    }
    source.distrusted = true;
    failed(source, reason);
  }

  /** {@code source} sent a block that was accepted: its failures are forgiven. */
  synchronized void served(Source source) {
    source.failures = 0;
  }

  /** {@code source} served every block up to the height it claimed: it is trusted again. */
  synchronized void keptClaim(Source source) {
    source.distrusted = false;
  }

  @Override
  public synchronized void close() {
    closed = true;
    sources.forEach(source -> GrpcClients.close(source.channel));
    sources = List.of();
  }

  /** Every orderer organization's Deliver endpoints, sorted, except this node's own. */
  private List<HostPort> endpoints(ChannelConfig config) {
    TreeSet<String> addresses = new TreeSet<>();
    config.ordererEndpoints().values().forEach(addresses::addAll);
    List<HostPort> endpoints = new ArrayList<>();
    for (String address : addresses) {
      HostPort endpoint = HostPort.parse(address);
      if (context.self().filter(endpoint::equals).isEmpty()) {
        endpoints.add(endpoint);
      }
    }
    return endpoints;
  }

  private ChannelCredentials credentials(ConfigState config) {
    if (context.tls().isEmpty()) {
      return InsecureChannelCredentials.create();
    }
    return TlsChannelCredentials.newBuilder()
        .trustManager(ServerTls.trustManagersOf(ordererTlsCas(config)))
        .keyManager(context.tls().get().keys())
        .build();
  }

  /** The TLS root and intermediate CAs of the organizations the consenters belong to. */
  private static List<X509Certificate> ordererTlsCas(ConfigState config) {
    List<X509Certificate> cas = new ArrayList<>();
    config.config().consenters().consenters().stream()
        .map(Consenter::mspId)
        .distinct()
        .flatMap(mspId -> config.rules().msps().msp(mspId).stream())
        .forEach(
            msp -> {
              cas.addAll(msp.tlsRootCertificates());
              cas.addAll(msp.tlsIntermediateCertificates());
            });
    return cas;
  }
}
