package io.rubinbft.orderer.config;

import java.time.Duration;

/**
 * gRPC keepalive of the Broadcast/Deliver listener, Fabric's {@code General.Keepalive}.
 *
 * @param serverMinInterval clients pinging more often than this are disconnected
 * @param serverInterval how long a connection may be idle before the server pings the client
 * @param serverTimeout how long the server waits for the ping's answer before closing
 */
public record KeepaliveSettings(
    Duration serverMinInterval, Duration serverInterval, Duration serverTimeout) {}
