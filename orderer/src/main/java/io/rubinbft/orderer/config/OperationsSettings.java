package io.rubinbft.orderer.config;

/**
 * The operations endpoint: /metrics, /healthz, /version, /logspec.
 *
 * @param listen its address
 * @param tls its TLS (off by default, as in Fabric)
 * @param metricsEnabled whether /metrics serves Prometheus metrics
 */
public record OperationsSettings(HostPort listen, TlsSettings tls, boolean metricsEnabled) {}
