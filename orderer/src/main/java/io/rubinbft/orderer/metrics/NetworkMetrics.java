package io.rubinbft.orderer.metrics;

import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.rubinbft.net.ChannelStats;
import io.rubinbft.net.DropReason;
import io.rubinbft.net.SelectorStats;
import io.rubinbft.orderer.cluster.ClusterStats;
import io.rubinbft.orderer.cluster.NetworkTraffic;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The replica network: the cluster layer's counters ({@code cluster_*}) and rdma-net's per-peer and
 * per-selector counters ({@code cluster_net_*}, labels {@code peer} and {@code direction}). Per
 * peer counters belong to the live connections: after a reconnect they start again from zero, which
 * Prometheus's rate() treats as a counter reset.
 */
final class NetworkMetrics {

  private final PrometheusRegistry registry;
  private final Supplier<ClusterStats> cluster;
  private final Supplier<Optional<NetworkTraffic>> traffic;

  NetworkMetrics(
      PrometheusRegistry registry,
      Supplier<ClusterStats> cluster,
      Supplier<Optional<NetworkTraffic>> traffic) {
    this.registry = registry;
    this.cluster = cluster;
    this.traffic = traffic;
    clusterMetrics();
    peerCounter("bytes_sent", "Bytes of frames sent to the peer.", ChannelStats::bytesSent);
    peerCounter(
        "bytes_received",
        "Bytes of valid frames received from the peer.",
        ChannelStats::bytesReceived);
    peerCounter("frames_sent", "Frames of every type sent to the peer.", ChannelStats::framesSent);
    peerCounter(
        "frames_received", "Valid frames received from the peer.", ChannelStats::framesReceived);
    peerCounter("messages_sent", "Whole messages sent to the peer.", ChannelStats::messagesSent);
    peerCounter(
        "messages_received",
        "Whole messages received from the peer.",
        ChannelStats::messagesReceived);
    peerCounter(
        "credit_frames_sent",
        "Explicit credit and acknowledgement frames sent to the peer.",
        ChannelStats::creditFramesSent);
    peerCounter(
        "back_pressured",
        "Sends to the peer refused because its receive window was full (BACK_PRESSURED).",
        ChannelStats::backPressured);
    peerGauge(
        "send_credits",
        "Frames this node may still send before the peer grants more credit.",
        c -> c.peerAvailable() - c.sendPosition());
    peerGauge(
        "receive_credits",
        "Frames the peer may still send before this node grants more credit.",
        c -> c.advertisedAvailable() - c.receivedPosition());
    selectorMetrics();
  }

  private void clusterMetrics() {
    GaugeWithCallback.builder()
        .name("cluster_connected_peers")
        .help("Peers this node has an open outbound connection to.")
        .callback(callback -> callback.call((double) cluster.get().connectedPeers()))
        .register(registry);
    CounterWithCallback.builder()
        .name("cluster_messages_sent")
        .help("Consensus messages handed to rdma-net.")
        .callback(callback -> callback.call((double) cluster.get().framesSent()))
        .register(registry);
    CounterWithCallback.builder()
        .name("cluster_messages_received")
        .help("Consensus messages received and dispatched to a channel.")
        .callback(callback -> callback.call((double) cluster.get().framesReceived()))
        .register(registry);
    CounterWithCallback.builder()
        .name("cluster_messages_dropped")
        .help("Consensus messages the cluster layer dropped, by reason.")
        .labelNames("reason")
        .callback(
            callback -> {
              ClusterStats stats = cluster.get();
              callback.call((double) stats.droppedSendQueueFull(), "send_queue_full");
              callback.call((double) stats.droppedUnknownChannel(), "unknown_channel");
              callback.call((double) stats.droppedMalformed(), "malformed");
              callback.call((double) stats.droppedOversized(), "oversized");
            })
        .register(registry);
    CounterWithCallback.builder()
        .name("cluster_links_closed_on_error")
        .help(
            "Links to peers the cluster layer closed because sending to or receiving from them"
                + " threw; only that link is closed.")
        .callback(callback -> callback.call((double) cluster.get().linksClosedOnError()))
        .register(registry);
    CounterWithCallback.builder()
        .name("cluster_network_errors")
        .help(
            "Turns of the cluster network thread that failed outside any one link; the thread"
                + " goes on.")
        .callback(callback -> callback.call((double) cluster.get().networkErrors()))
        .register(registry);
    CounterWithCallback.builder()
        .name("cluster_certificates_refused")
        .help(
            "Cluster handshakes refused because the peer's certificate was expired or not yet"
                + " valid.")
        .callback(callback -> callback.call((double) cluster.get().certificatesRefused()))
        .register(registry);
  }

  private void selectorMetrics() {
    selectorCounter("connects", "Outgoing connections started.", SelectorStats::connectsStarted);
    selectorCounter(
        "reconnects",
        "Outgoing connections to an address connected to before.",
        SelectorStats::reconnects);
    selectorCounter(
        "accepted", "Incoming connections that completed the handshake.", SelectorStats::accepted);
    selectorCounter(
        "handshakes_rejected",
        "Connections closed because the handshake failed.",
        SelectorStats::handshakesRejected);
    selectorCounter(
        "accepts_refused",
        "Incoming connections closed unauthenticated to make room for newer ones (the accept"
            + " backlog in total or per source address was full).",
        SelectorStats::acceptsRefused);
    selectorCounter(
        "handshakes_timed_out",
        "Connections closed because they were not authenticated within the handshake deadline.",
        SelectorStats::handshakesTimedOut);
    selectorCounter(
        "links_failed_on_error",
        "Connections closed because handling them threw (a bug or a peer's input it provoked).",
        SelectorStats::linksFailedOnError);
    CounterWithCallback.builder()
        .name("cluster_net_frames_dropped")
        .help("Incoming frames rdma-net dropped on any connection, by reason.")
        .labelNames("reason")
        .callback(
            callback ->
                traffic
                    .get()
                    .ifPresent(
                        t -> {
                          for (DropReason reason : DropReason.values()) {
                            callback.call(
                                (double) t.selector().dropped(reason),
                                reason.name().toLowerCase(Locale.ROOT));
                          }
                        }))
        .register(registry);
  }

  private void peerCounter(String name, String help, ToLongFunction<ChannelStats> field) {
    CounterWithCallback.builder()
        .name("cluster_net_" + name)
        .help(help)
        .labelNames("peer", "direction")
        .callback(callback -> eachPeer(field, callback::call))
        .register(registry);
  }

  private void peerGauge(String name, String help, ToLongFunction<ChannelStats> field) {
    GaugeWithCallback.builder()
        .name("cluster_net_" + name)
        .help(help)
        .labelNames("peer", "direction")
        .callback(callback -> eachPeer(field, callback::call))
        .register(registry);
  }

  /** Hands {@code field}, summed per peer and direction, to {@code sink}. */
  private void eachPeer(ToLongFunction<ChannelStats> field, LabelledSink sink) {
    traffic
        .get()
        .map(PeerTraffic::of)
        .ifPresent(
            peers -> peers.forEach(p -> sink.call((double) p.sum(field), p.peer(), p.direction())));
  }

  private void selectorCounter(String name, String help, ToDoubleFunction<SelectorStats> field) {
    CounterWithCallback.builder()
        .name("cluster_net_" + name)
        .help(help)
        .labelNames("transport")
        .callback(
            callback ->
                traffic
                    .get()
                    .ifPresent(
                        t ->
                            callback.call(
                                field.applyAsDouble(t.selector()), t.selector().transport())))
        .register(registry);
  }
}
