package io.rubinbft.orderer.metrics;

import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * Fabric's gRPC server metrics of streaming calls ({@code common/grpcmetrics}): calls received and
 * completed, their duration by status code, and their messages, labelled as Fabric labels them
 * ({@code service} with dots as underscores, e.g. {@code orderer_AtomicBroadcast}; {@code method};
 * {@code code} as Go names status codes, e.g. {@code OK}, {@code Canceled}). {@link #interceptor()}
 * counts the calls of the service it wraps: Broadcast and Deliver, the orderer's only calls
 * (Fabric's unary families never appear on its orderer either).
 */
public final class GrpcServerMetrics {

  /** Prometheus's default buckets, which Fabric's gRPC histograms use. */
  private static final double[] DURATION_BUCKETS = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private static final double NANOS_PER_SECOND = 1e9;

  private final Counter received;
  private final Counter completed;
  private final Histogram duration;
  private final Counter messagesReceived;
  private final Counter messagesSent;
  private final PrometheusRegistry registry;

  /** By full method name: only the methods of the services this interceptor wraps reach it. */
  private final Map<String, MethodPoints> methods = new ConcurrentHashMap<>();

  GrpcServerMetrics(PrometheusRegistry registry) {
    this.registry = registry;
    received = counter(registry, "requests_received", "requests received", "service", "method");
    completed =
        counter(registry, "requests_completed", "requests completed", "service", "method", "code");
    duration =
        Histogram.builder()
            .name("grpc_server_stream_request_duration")
            .help("The time to complete a stream request.")
            .labelNames("service", "method", "code")
            .classicOnly()
            .classicUpperBounds(DURATION_BUCKETS)
            .register(registry);
    messagesReceived =
        counter(registry, "messages_received", "messages received", "service", "method");
    messagesSent = counter(registry, "messages_sent", "messages sent", "service", "method");
  }

  private static Counter counter(
      PrometheusRegistry registry, String name, String what, String... labels) {
    return Counter.builder()
        .name("grpc_server_stream_" + name)
        .help("The number of stream " + what + ".")
        .labelNames(labels)
        .register(registry);
  }

  /**
   * Registers {@code grpc_server_connections_refused_total{reason}}, read from {@code refusals} (by
   * reason label) at each scrape: connections the listener's caps closed (not one of Fabric's).
   */
  public void countConnectionsRefused(Supplier<Map<String, Long>> refusals) {
    CounterWithCallback.builder()
        .name("grpc_server_connections_refused")
        .help(
            "Connections to the Broadcast/Deliver listener closed by its caps (General.Connections),"
                + " by the cap.")
        .labelNames("reason")
        .callback(callback -> refusals.get().forEach((reason, n) -> callback.call(n, reason)))
        .register(registry);
  }

  /**
   * Registers the count of messages the listener's inbound budget refused, or made give way, by
   * reason: too_large, connection_budget, node_budget.
   */
  public void countMessagesRefused(Supplier<Map<String, Long>> refusals) {
    CounterWithCallback.builder()
        .name("grpc_server_messages_refused")
        .help(
            "Messages to the Broadcast/Deliver listener refused as they arrived: larger than the"
                + " served channels' AbsoluteMaxBytes allow, or pushed out of the bytes a"
                + " connection or the node may hold in messages being received, by reason.")
        .labelNames("reason")
        .callback(callback -> refusals.get().forEach((reason, n) -> callback.call(n, reason)))
        .register(registry);
  }

  /** Counts the calls of the service it is applied to. */
  public ServerInterceptor interceptor() {
    return new ServerInterceptor() {
      @Override
      public <Q, A> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        return observe(call, headers, next);
      }
    };
  }

  private <Q, A> ServerCall.Listener<Q> observe(
      ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
    MethodDescriptor<Q, A> method = call.getMethodDescriptor();
    MethodPoints points = methods.computeIfAbsent(method.getFullMethodName(), _ -> points(method));
    points.received().inc();
    long started = System.nanoTime();
    AtomicBoolean done = new AtomicBoolean();
    ServerCall<Q, A> counted =
        new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void sendMessage(A message) {
            super.sendMessage(message);
            points.sent().inc();
          }

          @Override
          public void close(Status status, Metadata trailers) {
            complete(points, status.getCode(), started, done);
            super.close(status, trailers);
          }
        };
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(
        next.startCall(counted, headers)) {
      @Override
      public void onMessage(Q message) {
        points.got().inc();
        super.onMessage(message);
      }

      @Override
      public void onCancel() {
        complete(points, Status.Code.CANCELLED, started, done);
        super.onCancel();
      }
    };
  }

  private MethodPoints points(MethodDescriptor<?, ?> method) {
    String service = method.getServiceName() == null ? "unknown" : method.getServiceName();
    String[] labels = {service.replace('.', '_'), method.getBareMethodName()};
    return new MethodPoints(
        labels[0],
        labels[1],
        received.labelValues(labels),
        messagesSent.labelValues(labels),
        messagesReceived.labelValues(labels),
        new AtomicReferenceArray<>(Status.Code.values().length));
  }

  /**
   * A method's data points, looked up once instead of by their labels on every call (a call is one
   * envelope in the gateway pattern). {@code byCode} fills as status codes occur.
   */
  private record MethodPoints(
      String service,
      String method,
      CounterDataPoint received,
      CounterDataPoint sent,
      CounterDataPoint got,
      AtomicReferenceArray<Completion> byCode) {}

  private record Completion(CounterDataPoint completed, DistributionDataPoint duration) {}

  /** Once per call: closed by the server, or cancelled by the client. */
  private void complete(MethodPoints points, Status.Code code, long started, AtomicBoolean done) {
    if (done.compareAndSet(false, true)) {
      Completion completion = points.byCode().get(code.ordinal());
      if (completion == null) {
        // Two calls racing here look up the same data points: either may be kept.
        String goCode = goName(code);
        completion =
            new Completion(
                completed.labelValues(points.service(), points.method(), goCode),
                duration.labelValues(points.service(), points.method(), goCode));
        points.byCode().set(code.ordinal(), completion);
      }
      completion.completed().inc();
      completion.duration().observe((System.nanoTime() - started) / NANOS_PER_SECOND);
    }
  }

  /** Go's name of a status code (grpc-go {@code codes.Code.String()}). */
  static String goName(Status.Code code) {
    return switch (code) {
      case OK -> "OK";
      case CANCELLED -> "Canceled";
      case UNKNOWN -> "Unknown";
      case INVALID_ARGUMENT -> "InvalidArgument";
      case DEADLINE_EXCEEDED -> "DeadlineExceeded";
      case NOT_FOUND -> "NotFound";
      case ALREADY_EXISTS -> "AlreadyExists";
      case PERMISSION_DENIED -> "PermissionDenied";
      case RESOURCE_EXHAUSTED -> "ResourceExhausted";
      case FAILED_PRECONDITION -> "FailedPrecondition";
      case ABORTED -> "Aborted";
      case OUT_OF_RANGE -> "OutOfRange";
      case UNIMPLEMENTED -> "Unimplemented";
      case INTERNAL -> "Internal";
      case UNAVAILABLE -> "Unavailable";
      case DATA_LOSS -> "DataLoss";
      case UNAUTHENTICATED -> "Unauthenticated";
    };
  }
}
