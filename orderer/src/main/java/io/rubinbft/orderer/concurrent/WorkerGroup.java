package io.rubinbft.orderer.concurrent;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The workers one component needs, read as one: the component joins each of them ({@link
 * Worker.Builder#partOf}) and asks the group, not each worker, whether one stopped. This is the one
 * path by which a worker's failure reaches the health check: a channel's replica host holds the
 * group of the workers its channel needs (its ledger writer, archive reader and envelope
 * forwarding) and stops on the first failure among them, which {@code /healthz} then reports.
 *
 * <p>Thread-safe: workers join while their owner is built and fail on their own threads.
 */
public final class WorkerGroup {

  private record Member(Worker worker, String role) {}

  private final List<Member> members = new CopyOnWriteArrayList<>();

  void join(Worker worker, String role) {
    members.add(new Member(worker, Objects.requireNonNull(role)));
  }

  /**
   * Why a member stopped, if one did: {@code "<role> stopped: <throwable>"} of the first member (in
   * the order they joined) whose body ended by failing.
   */
  public Optional<String> failure() {
    return members.stream()
        .flatMap(m -> m.worker().failure().map(e -> m.role() + " stopped: " + e).stream())
        .findFirst();
  }
}
