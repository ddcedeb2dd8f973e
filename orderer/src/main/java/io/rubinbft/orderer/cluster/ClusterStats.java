package io.rubinbft.orderer.cluster;

/**
 * The cluster network's counters, as plain data for metrics and health.
 *
 * @param connectedPeers peers with an open outbound channel
 * @param framesSent frames handed to rdma-net
 * @param framesReceived frames received and dispatched
 * @param droppedSendQueueFull frames dropped because a peer's send queue was over its byte budget
 * @param droppedUnknownChannel frames received for a channel this node does not serve
 * @param droppedMalformed frames that were not cluster frames
 * @param droppedOversized frames larger than the transport (or the peer) carries, never sent
 * @param linksClosedOnError links closed because sending to or receiving from them threw
 * @param networkErrors turns of the network thread that failed outside any one link
 * @param certificatesRefused handshakes refused because the peer's certificate was expired or not
 *     yet valid
 */
public record ClusterStats(
    int connectedPeers,
    long framesSent,
    long framesReceived,
    long droppedSendQueueFull,
    long droppedUnknownChannel,
    long droppedMalformed,
    long droppedOversized,
    long linksClosedOnError,
    long networkErrors,
    long certificatesRefused) {}
