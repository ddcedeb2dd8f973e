package io.rubinbft.orderer.config;

/**
 * The channel participation API ({@code osnadmin}).
 *
 * @param enabled whether the API is served
 * @param listen its address
 * @param tls its TLS; Fabric requires mutual TLS here
 * @param maxRequestBodySize the largest join or update request accepted, in bytes
 */
public record AdminSettings(
    boolean enabled, HostPort listen, TlsSettings tls, long maxRequestBodySize) {}
