package io.rubinbft.orderer.operations;

import java.util.Optional;

/** One component's health: empty when it serves, else the reason it does not. */
@FunctionalInterface
public interface HealthCheck {

  Optional<String> failure();
}
