package io.rubinbft.bft.message;

/**
 * Sent periodically: lets a lagging replica notice it is behind (state transfer) or in an old view
 * (the peer answers with its new-view proof). Authenticated by the transport only.
 */
public record Status(long view, boolean viewInstalled, long lastDelivered, int sender)
    implements Message {}
