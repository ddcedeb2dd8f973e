package io.rubinbft.orderer.operations;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;

/** The registered health checks by component name (ledger, consensus, cluster connectivity...). */
public final class HealthChecks {

  /** A failed check, in Fabric's healthz JSON shape. */
  public record FailedCheck(String component, String reason) {}

  private final Map<String, HealthCheck> checks = new ConcurrentSkipListMap<>();

  /** Registers (or replaces) the check for {@code component}. */
  public void register(String component, HealthCheck check) {
    checks.put(component, check);
  }

  public void unregister(String component) {
    checks.remove(component);
  }

  /** The names of the registered checks. */
  public Set<String> components() {
    return Set.copyOf(checks.keySet());
  }

  /**
   * Runs every check but those named in {@code excluded}; a check that throws counts as failed with
   * the exception's message.
   */
  public List<FailedCheck> failures(Set<String> excluded) {
    List<FailedCheck> failed = new ArrayList<>();
    checks.forEach(
        (component, check) -> {
          if (excluded.contains(component)) {
            return;
          }
          Optional<String> reason;
          try {
            reason = check.failure();
          } catch (RuntimeException e) {
            reason = Optional.of("health check failed: " + e);
          }
          reason.ifPresent(r -> failed.add(new FailedCheck(component, r)));
        });
    return failed;
  }
}
